import { prorate } from '#shared/billing/pricing.ts';
import type {
  ChangePlanInput,
  ChangePlanOutcome,
  GatewayDecline,
  ProrationPreview,
} from '../gateway.ts';
import { type Books, inBooks } from './books.ts';
import { cardToCharge } from './cards.ts';
import { chargeInvoice } from './charges.ts';
import { confirmationUrl } from './confirmation.ts';
import { itemsFor } from './customers-and-prices.ts';
import { openInvoice, periodAmount } from './invoices.ts';
import { lockSubscription } from './locks.ts';
import { periodEndAfter } from './periods.ts';
import type { SandboxContext } from './sandbox-context.ts';
import { SandboxRequestError } from './sandbox-errors.ts';
import type {
  PendingPeriod,
  SandboxInvoice,
  SandboxInvoiceLine,
  SandboxSubscription,
  SubscriptionItem,
} from './sandbox-objects.ts';
import { applyChange, settle } from './settlement.ts';
import { invoiceSnapshot, subscriptionSnapshot } from './snapshots.ts';

// A plan change mid-period (shared/billing/pricing.ts prorate): the unused part of the
// current period is credited, the rest of it on the new plan charged, and what is due is
// paid at once on a `subscription_update` invoice. The period's end stays where it was.
// A change to another billing period (monthly to yearly, or back) restarts the cycle now,
// as Stripe does: the unused part is credited against a whole new period on the new plan.

const CHANGEABLE: readonly SandboxSubscription['status'][] = ['active', 'paused'];

interface Plan {
  preview: ProrationPreview;
  items: SubscriptionItem[];
  periodStart: string;
  periodEnd: string;
  /** A change to another billing period: the cycle it starts now. */
  newPeriod: PendingPeriod | null;
}

async function planChange(
  books: Books,
  subscription: SandboxSubscription,
  input: ChangePlanInput,
): Promise<Plan> {
  if (!CHANGEABLE.includes(subscription.status) || subscription.onetime) {
    throw new SandboxRequestError(
      'invalid_state',
      `A ${subscription.onetime ? 'one-time' : subscription.status} subscription cannot change plan`,
    );
  }
  const periodEnd = subscription.currentPeriodEnd;
  if (!periodEnd) throw new SandboxRequestError('invalid_state', 'The subscription has no period');
  const { items, plan } = await itemsFor(books, input.items);
  if (plan.currency !== subscription.currency) {
    throw new SandboxRequestError('invalid_request', 'A plan change keeps the currency');
  }
  if (plan.onetime || !plan.interval) {
    throw new SandboxRequestError('invalid_request', 'A subscription changes to recurring prices');
  }
  const now = books.now();
  // Both sides at the discount this period was billed with; the next period at what is left.
  const newAmount = periodAmount(items, subscription.periodDiscount);
  const proration = prorate({
    currentAmount: periodAmount(subscription.items, subscription.periodDiscount),
    newAmount,
    periodStart: new Date(subscription.currentPeriodStart),
    periodEnd: new Date(periodEnd),
    at: now,
  });
  const nextDiscount = subscription.discount
    ? { percentOff: subscription.discount.percentOff, amountOff: subscription.discount.amountOff }
    : null;
  const nextAmount = periodAmount(items, nextDiscount);
  const samePeriod =
    plan.interval === subscription.interval && plan.intervalCount === subscription.intervalCount;
  if (samePeriod) {
    return {
      preview: {
        currency: subscription.currency,
        ...proration,
        nextAmount,
        periodEnd: new Date(periodEnd),
      },
      items,
      periodStart: now.toISOString(),
      periodEnd,
      newPeriod: null,
    };
  }
  // The whole new period is charged, less the unused time of the old one credited as above.
  const end = periodEndAfter(now, now, plan.interval, plan.intervalCount);
  const { credit } = proration;
  return {
    preview: {
      currency: subscription.currency,
      credit,
      charge: newAmount,
      due: Math.max(newAmount - credit, 0),
      nextAmount,
      periodEnd: end,
    },
    items,
    periodStart: now.toISOString(),
    periodEnd: end.toISOString(),
    newPeriod: {
      interval: plan.interval,
      intervalCount: plan.intervalCount,
      start: now.toISOString(),
      end: end.toISOString(),
    },
  };
}

export function previewChange(
  context: SandboxContext,
  input: ChangePlanInput,
): Promise<ProrationPreview> {
  return inBooks(context, async (books) => {
    const subscription = await books.get('subscription', input.subscriptionRef);
    return (await planChange(books, subscription, input)).preview;
  });
}

function names(items: SubscriptionItem[]): string {
  return items.map((item) => item.name).join(' + ');
}

function prorationLines(subscription: SandboxSubscription, change: Plan): SandboxInvoiceLine[] {
  const { credit, charge } = change.preview;
  const [current] = subscription.items;
  const [next] = change.items;
  const line = (
    description: string,
    item: SubscriptionItem | undefined,
    amount: number,
    period: { start: string; end: string },
    proration: boolean,
  ): SandboxInvoiceLine => ({
    description,
    price: item?.price ?? null,
    productId: item?.productId ?? null,
    quantity: 1,
    unitAmount: amount,
    amount,
    periodStart: period.start,
    periodEnd: period.end,
    proration,
  });
  const unused = {
    start: change.periodStart,
    end: subscription.currentPeriodEnd ?? change.periodEnd,
  };
  const credited =
    credit > 0
      ? [line(`Unused time on ${names(subscription.items)}`, current, -credit, unused, true)]
      : [];
  if (change.newPeriod) {
    // A whole new period on the new plan, not a proration of the old one.
    return [...credited, line(names(change.items), next, charge, change.newPeriod, false)];
  }
  const rest = { start: change.periodStart, end: change.periodEnd };
  return [
    ...credited,
    ...(charge > 0
      ? [line(`Remaining time on ${names(change.items)}`, next, charge, rest, true)]
      : []),
  ];
}

type StoredChange =
  | { kind: 'completed'; subscription: SandboxSubscription; invoice: SandboxInvoice | null }
  | { kind: 'redirect'; url: string; subscription: SandboxSubscription }
  | { kind: 'declined'; decline: GatewayDecline };

function answer(stored: StoredChange): ChangePlanOutcome {
  if (stored.kind === 'declined') return stored;
  const subscription = subscriptionSnapshot(stored.subscription);
  if (stored.kind === 'redirect') return { kind: 'redirect', url: stored.url, subscription };
  return {
    kind: 'completed',
    subscription,
    invoice: stored.invoice ? invoiceSnapshot(stored.invoice) : null,
  };
}

export function changePlan(
  context: SandboxContext,
  input: ChangePlanInput,
): Promise<ChangePlanOutcome> {
  return inBooks(context, async (books) => {
    const record = await books.claimIdempotencyKey(input.idempotencyKey, 'change_plan');
    if (record.outcome) return answer(record.outcome as StoredChange);
    const stored = await change(context, books, input);
    books.change(record, { outcome: structuredClone(stored) });
    return answer(stored);
  });
}

async function change(
  context: SandboxContext,
  books: Books,
  input: ChangePlanInput,
): Promise<StoredChange> {
  const { subscription } = await lockSubscription(books, input.subscriptionRef);
  const plan = await planChange(books, subscription, input);
  if (plan.preview.due === 0) {
    // Nothing to pay: a surplus credit is not paid out, so no invoice either.
    applyChange(books, subscription, plan.items, plan.newPeriod);
    books.emit('customer.subscription.updated', { subscription });
    return { kind: 'completed', subscription, invoice: null };
  }
  const invoice = openInvoice(books, {
    subscription,
    reason: 'subscription_update',
    lines: prorationLines(subscription, plan),
    discount: null,
    periodStart: plan.periodStart,
    periodEnd: plan.periodEnd,
    quiet: true,
    pendingItems: plan.items,
    pendingPeriod: plan.newPeriod,
  });
  const result = chargeInvoice(books, invoice, await cardToCharge(books, subscription), {
    offSession: false,
    returnUrl: subscription.returnUrl,
  });
  await settle(books, invoice, result);
  if (result.kind === 'paid') return { kind: 'completed', subscription, invoice };
  if (result.kind === 'requires_action') {
    const url = confirmationUrl(context.appUrl, result.payment.id);
    // Unchanged until the customer confirms the payment (the invoice holds the new items
    // and, for a change of period, the new cycle).
    return { kind: 'redirect', url, subscription };
  }
  return { kind: 'declined', decline: result.decline };
}
