import { type BillingPlan, SubscriptionStatus } from '@paypal/paypal-server-sdk';
import { type PayPalApi, sdk } from './paypal-client.ts';
import { readCustomId, type SubscriptionRead } from './snapshots.ts';

const DAY_MS = 86_400_000;

/**
 * Plans by id. We never change a plan at PayPal (a new price is a new plan), so one read of
 * each is enough for the process's life.
 */
export class PlanBook {
  private readonly plans = new Map<string, Promise<BillingPlan>>();

  constructor(private readonly api: PayPalApi) {}

  get(id: string): Promise<BillingPlan> {
    let plan = this.plans.get(id);
    if (!plan) {
      plan = sdk('get plan', () => this.api.subscriptions.getBillingPlan(id));
      // A failed read is not remembered: the next asks again.
      plan.catch(() => this.plans.delete(id));
      this.plans.set(id, plan);
    }
    return plan;
  }

  remember(plan: BillingPlan): void {
    if (plan.id) this.plans.set(plan.id, Promise.resolve(plan));
  }
}

/** The subscription as PayPal holds it now, with its plans and the payments it took. */
export async function readSubscription(
  api: PayPalApi,
  plans: PlanBook,
  id: string,
): Promise<SubscriptionRead> {
  // Dated when sent: a read that left before one of our changes never outranks its answer.
  const readAt = new Date();
  const subscription = await sdk('get subscription', () =>
    api.subscriptions.getSubscription({ id }),
  );
  const planIds = [subscription.planId ?? '', ...readCustomId(subscription.customId).addonPlanIds];
  const byId = new Map<string, BillingPlan>();
  for (const planId of planIds.filter(Boolean)) byId.set(planId, await plans.get(planId));
  // Not yet approved: nothing has been paid, and there is nothing to list.
  const pending = [SubscriptionStatus.ApprovalPending, SubscriptionStatus.Approved];
  if (!subscription.status || pending.includes(subscription.status)) {
    return { subscription, plans: byId, transactions: [], readAt };
  }
  const since = new Date(subscription.createTime ?? subscription.startTime ?? readAt);
  const list = await sdk('list transactions', () =>
    api.subscriptions.listSubscriptionTransactions({
      id,
      startTime: new Date(since.getTime() - DAY_MS).toISOString(),
      endTime: new Date(readAt.getTime() + DAY_MS).toISOString(),
    }),
  );
  return { subscription, plans: byId, transactions: list.transactions ?? [], readAt };
}
