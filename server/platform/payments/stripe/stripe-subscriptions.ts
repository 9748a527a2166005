import type Stripe from 'stripe';
import type {
  ChangePlanInput,
  ChangePlanOutcome,
  GatewaySubscription,
  ProrationPreview,
} from '../gateway.ts';
import { fromUnix, idOf, ourCurrency } from './stripe-client.ts';
import { asking, declineFrom, declineOf, gatewayFailure } from './stripe-errors.ts';
import { readInvoice, SUBSCRIPTION_EXPAND, snapshotOf } from './stripe-reads.ts';
import { ENDED_FOR, intentsOf, NON_PAYMENT, PAUSED_AT } from './stripe-snapshots.ts';

// A running subscription's life at Stripe: plan changes with proration, cancel at period
// end and its undoing, pause (Stripe's pause_collection: invoices are voided meanwhile),
// and the end after failed renewals.

async function update(
  stripe: Stripe,
  ref: string,
  what: string,
  params: Stripe.SubscriptionUpdateParams,
  idempotencyKey?: string,
): Promise<GatewaySubscription> {
  const updated = await asking(what, () =>
    stripe.subscriptions.update(
      ref,
      { ...params, expand: SUBSCRIPTION_EXPAND },
      idempotencyKey ? { idempotencyKey } : undefined,
    ),
  );
  return snapshotOf(stripe, updated);
}

/** Every current item goes, the new ones come: Stripe prorates the difference. */
async function replacedItems(stripe: Stripe, input: ChangePlanInput) {
  const held = await asking('read a subscription', () =>
    stripe.subscriptions.retrieve(input.subscriptionRef),
  );
  const items: Stripe.SubscriptionUpdateParams.Item[] = [
    ...held.items.data.map((item) => ({ id: item.id, deleted: true })),
    ...input.items.map((item) => {
      if (!item.ref) throw new Error(`product ${item.productId} has no Stripe price yet`);
      return { price: item.ref, quantity: 1 };
    }),
  ];
  return { held, items };
}

export async function previewChange(
  stripe: Stripe,
  input: ChangePlanInput,
): Promise<ProrationPreview> {
  const { held, items } = await replacedItems(stripe, input);
  const preview = await asking('preview a plan change', () =>
    stripe.invoices.createPreview({
      customer: idOf(held.customer) ?? undefined,
      subscription: held.id,
      subscription_details: {
        items,
        proration_behavior: 'always_invoice',
        proration_date: Math.floor(Date.now() / 1000),
      },
    }),
  );
  const lines = preview.lines.data;
  const credit = -lines
    .filter((line) => line.amount < 0)
    .reduce((sum, line) => sum + line.amount, 0);
  const charge = lines
    .filter((line) => line.amount > 0)
    .reduce((sum, line) => sum + line.amount, 0);
  const periodEnd = Math.max(
    0,
    ...lines.filter((line) => line.amount > 0).map((line) => line.period.end),
  );
  return {
    currency: ourCurrency(preview.currency),
    credit,
    charge,
    due: preview.amount_due,
    nextAmount: input.items.reduce((sum, item) => sum + item.amount, 0),
    periodEnd: fromUnix(periodEnd),
  };
}

export async function changePlan(
  stripe: Stripe,
  input: ChangePlanInput,
): Promise<ChangePlanOutcome> {
  const { items } = await replacedItems(stripe, input);
  let updated: Stripe.Subscription;
  try {
    updated = await stripe.subscriptions.update(
      input.subscriptionRef,
      {
        items,
        // The difference is invoiced and charged now; a refused card leaves the old plan
        // in place (Stripe holds the change in pending_update until the invoice is paid).
        proration_behavior: 'always_invoice',
        payment_behavior: 'pending_if_incomplete',
        expand: SUBSCRIPTION_EXPAND,
      },
      { idempotencyKey: input.idempotencyKey },
    );
  } catch (error) {
    const decline = declineOf(error);
    if (decline) return { kind: 'declined', decline };
    throw gatewayFailure(error, 'change a plan');
  }
  const subscription = await snapshotOf(stripe, updated);
  const latest = idOf(updated.latest_invoice);
  const invoice = latest ? await readInvoice(stripe, latest) : null;
  const fresh = invoice?.raw.billing_reason === 'subscription_update' ? invoice : null;
  if (updated.pending_update && fresh) {
    const intent = intentsOf(fresh.raw)[0];
    if (intent?.status === 'requires_action' && fresh.raw.hosted_invoice_url) {
      return { kind: 'redirect', url: fresh.raw.hosted_invoice_url, subscription };
    }
    return {
      kind: 'declined',
      decline: declineFrom(intent?.last_payment_error ?? { code: 'card_declined' }),
    };
  }
  return { kind: 'completed', subscription, invoice: fresh?.invoice ?? null };
}

export async function cancel(
  stripe: Stripe,
  ref: string,
  options: { atPeriodEnd: boolean },
): Promise<GatewaySubscription> {
  if (options.atPeriodEnd) {
    return update(stripe, ref, 'cancel a subscription', { cancel_at_period_end: true });
  }
  const canceled = await asking('cancel a subscription', () =>
    stripe.subscriptions.cancel(ref, { expand: SUBSCRIPTION_EXPAND }),
  );
  return snapshotOf(stripe, canceled);
}

export const resume = (stripe: Stripe, ref: string) =>
  update(stripe, ref, 'resume a subscription', { cancel_at_period_end: false });

export const pause = (stripe: Stripe, ref: string) =>
  update(stripe, ref, 'pause a subscription', {
    pause_collection: { behavior: 'void' },
    metadata: { [PAUSED_AT]: String(Math.floor(Date.now() / 1000)) },
  });

export const unpause = (stripe: Stripe, ref: string) =>
  update(stripe, ref, 'continue a subscription', {
    pause_collection: '',
    metadata: { [PAUSED_AT]: '' },
  });

/**
 * After the last retry: the open invoice is written off and the subscription ends, marked
 * as ended for non-payment (Stripe's `canceled` is §4 failed then, not expired).
 */
export async function endForNonPayment(stripe: Stripe, ref: string): Promise<GatewaySubscription> {
  const held = await asking('read a subscription', () => stripe.subscriptions.retrieve(ref));
  const latest = idOf(held.latest_invoice);
  if (latest) {
    const invoice = await asking('read an invoice', () => stripe.invoices.retrieve(latest));
    if (invoice.status === 'open') {
      await asking('write off an invoice', () => stripe.invoices.markUncollectible(latest));
    }
  }
  await asking('mark a subscription', () =>
    stripe.subscriptions.update(ref, { metadata: { [ENDED_FOR]: NON_PAYMENT } }),
  );
  if (held.status === 'canceled') {
    const again = await asking('read a subscription', () =>
      stripe.subscriptions.retrieve(ref, { expand: SUBSCRIPTION_EXPAND }),
    );
    return snapshotOf(stripe, again);
  }
  const canceled = await asking('end a subscription', () =>
    stripe.subscriptions.cancel(ref, { expand: SUBSCRIPTION_EXPAND }),
  );
  return snapshotOf(stripe, canceled);
}

/**
 * Every subscription Stripe holds that could have changed since `since` (those ended
 * before it cannot): Stripe's list has no "updated since", so the rest is read whole.
 */
export async function* listSubscriptions(
  stripe: Stripe,
  since: Date,
): AsyncIterable<GatewaySubscription> {
  const cutoff = Math.floor(since.getTime() / 1000);
  const pages = stripe.subscriptions.list({
    status: 'all',
    limit: 100,
    expand: SUBSCRIPTION_EXPAND.map((path) => `data.${path}`),
  });
  try {
    for await (const subscription of pages) {
      if (subscription.ended_at && subscription.ended_at < cutoff) continue;
      yield await snapshotOf(stripe, subscription);
    }
  } catch (error) {
    throw gatewayFailure(error, 'list subscriptions');
  }
}
