import {
  ApplicationContextUserAction,
  ExperienceContextShippingPreference,
  SubscriptionStatus as PayPalStatus,
} from '@paypal/paypal-server-sdk';
import {
  GatewayRequestError,
  type GatewaySubscription,
  type StartSubscriptionInput,
  type StartSubscriptionOutcome,
} from '../gateway.ts';
import { type PayPalApi, sdk } from './paypal-client.ts';
import { toPayPalMoney } from './paypal-money.ts';
import {
  customIdFor,
  STATUS_NOTES,
  type SubscriptionRead,
  subscriptionSnapshot,
} from './snapshots.ts';
import { type PlanBook, readSubscription } from './subscription-reads.ts';

// Subscribing through PayPal's approval link, and the customer's and staff's actions on a
// running subscription. Each answers the subscription as PayPal holds it after the action
// (read back), and asking for what already holds changes nothing.

export interface ActionContext {
  api: PayPalApi;
  plans: PlanBook;
  /** Shown on PayPal's approval page. */
  brandName: string;
}

export async function startSubscription(
  context: ActionContext,
  input: StartSubscriptionInput,
): Promise<StartSubscriptionOutcome> {
  // A PayPal plan has one price per cycle for every subscriber; a per-subscription override
  // can change a cycle's price but cannot add the discounted cycles a coupon needs.
  if (input.discount) {
    throw new GatewayRequestError('invalid_request', 'PayPal subscriptions take no coupons');
  }
  const [plan, ...addons] = input.items;
  if (!plan?.ref || addons.some((addon) => !addon.ref)) {
    throw new GatewayRequestError('invalid_request', 'Every item needs its PayPal plan first');
  }
  const userId = input.metadata.userId ?? '';
  const total = input.items.reduce((sum, item) => sum + item.amount, 0);
  const subscription = await sdk('create subscription', () =>
    context.api.subscriptions.createSubscription({
      // The same order twice is one subscription at PayPal.
      paypalRequestId: input.idempotencyKey,
      prefer: 'return=representation',
      body: {
        planId: plan.ref ?? '',
        // PayPal bills one plan: addons ride in its price, named in custom_id for our books.
        customId: customIdFor(
          userId,
          addons.map((addon) => addon.ref ?? ''),
        ),
        ...(addons.length > 0
          ? {
              plan: {
                billingCycles: [
                  {
                    sequence: 1,
                    pricingScheme: { fixedPrice: toPayPalMoney(total, plan.currency) },
                  },
                ],
              },
            }
          : {}),
        applicationContext: {
          brandName: context.brandName.slice(0, 127),
          userAction: ApplicationContextUserAction.SubscribeNow,
          shippingPreference: ExperienceContextShippingPreference.NoShipping,
          returnUrl: input.returnUrl,
          cancelUrl: input.cancelUrl,
        },
      },
    }),
  );
  const approve = subscription.links?.find((link) => link.rel === 'approve')?.href;
  if (!approve) {
    throw new GatewayRequestError(
      'invalid_state',
      `Subscription ${subscription.id} needs no approval`,
    );
  }
  // Not ours to grant until the buyer approves and PayPal takes the first payment.
  return { kind: 'redirect', url: approve, subscription: null };
}

function known(read: SubscriptionRead, action: string): GatewaySubscription {
  const snapshot = subscriptionSnapshot(read);
  if (!snapshot) {
    throw new GatewayRequestError(
      'invalid_state',
      `Cannot ${action} subscription ${read.subscription.id}: it awaits the buyer's approval`,
    );
  }
  return snapshot;
}

function refuse(read: SubscriptionRead, action: string): never {
  throw new GatewayRequestError(
    'invalid_state',
    `Cannot ${action} subscription ${read.subscription.id}: it is ${read.subscription.status}`,
  );
}

const ENDED: readonly (PayPalStatus | undefined)[] = [PayPalStatus.Cancelled, PayPalStatus.Expired];

/**
 * PayPal's cancel stops all billing at once and cannot be undone. At period end: the paid
 * period stays the customer's (§4 canceled, then expired when it ends). Not at period end:
 * ended now (§4 expired).
 */
export async function cancel(
  context: ActionContext,
  ref: string,
  options: { atPeriodEnd: boolean; note?: string },
): Promise<GatewaySubscription> {
  const before = await readSubscription(context.api, context.plans, ref);
  known(before, 'cancel');
  if (ENDED.includes(before.subscription.status)) return known(before, 'cancel');
  const reason =
    options.note ?? (options.atPeriodEnd ? STATUS_NOTES.atPeriodEnd : STATUS_NOTES.now);
  await sdk('cancel subscription', () =>
    context.api.subscriptions.cancelSubscription({ id: ref, body: { reason } }),
  );
  return known(await readSubscription(context.api, context.plans, ref), 'cancel');
}

/** Undoing a cancel: PayPal cannot bring a cancelled subscription back. */
export async function resume(context: ActionContext, ref: string): Promise<GatewaySubscription> {
  const read = await readSubscription(context.api, context.plans, ref);
  const snapshot = known(read, 'resume');
  if (snapshot.cancelAtPeriodEnd || ENDED.includes(read.subscription.status)) {
    refuse(read, 'resume');
  }
  return snapshot;
}

/** Paused = suspended at PayPal: no payment is taken until it is activated again. */
export async function pause(context: ActionContext, ref: string): Promise<GatewaySubscription> {
  const read = await readSubscription(context.api, context.plans, ref);
  const snapshot = known(read, 'pause');
  if (snapshot.status === 'paused') return snapshot;
  if (snapshot.status !== 'active') refuse(read, 'pause');
  await sdk('suspend subscription', () =>
    context.api.subscriptions.suspendSubscription({
      id: ref,
      body: { reason: STATUS_NOTES.pause },
    }),
  );
  return known(await readSubscription(context.api, context.plans, ref), 'pause');
}

export async function unpause(context: ActionContext, ref: string): Promise<GatewaySubscription> {
  const read = await readSubscription(context.api, context.plans, ref);
  const snapshot = known(read, 'unpause');
  if (read.subscription.status === PayPalStatus.Active) return snapshot;
  if (read.subscription.status !== PayPalStatus.Suspended) refuse(read, 'unpause');
  await sdk('activate subscription', () =>
    context.api.subscriptions.activateSubscription({
      id: ref,
      body: { reason: 'Continued by the customer' },
    }),
  );
  return known(await readSubscription(context.api, context.plans, ref), 'unpause');
}

/** Our dunning gave up: PayPal stops retrying and the subscription fails (§4). */
export function endForNonPayment(
  context: ActionContext,
  ref: string,
): Promise<GatewaySubscription> {
  return cancel(context, ref, { atPeriodEnd: false, note: STATUS_NOTES.nonPayment });
}
