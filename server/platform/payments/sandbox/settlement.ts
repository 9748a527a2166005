import type { Books } from './books.ts';
import { announceCard, makeDefault } from './cards.ts';
import type { ChargeResult } from './charges.ts';
import { periodEndAfter } from './periods.ts';
import type {
  PendingPeriod,
  SandboxInvoice,
  SandboxPayment,
  SandboxSubscription,
  SubscriptionItem,
} from './sandbox-objects.ts';

// What a charge's result means for the subscription behind the invoice, and the webhooks
// that tell us. A first invoice or a plan change's invoice was not announced: paid, it is
// announced with everything it brought; refused, it leaves nothing for us to see (the
// purchase or the change did not happen). A renewal's refusal is news: the subscription is
// past due (§4 on_hold) until our dunning pays the invoice or gives up.

export async function settle(
  books: Books,
  invoice: SandboxInvoice,
  result: ChargeResult,
): Promise<void> {
  if (!invoice.subscription) return;
  const subscription = await books.get('subscription', invoice.subscription, { lock: true });
  if (result.kind === 'paid') return settlePaid(books, subscription, invoice, result.payment);
  if (result.kind === 'requires_action') {
    if (!invoice.quiet) {
      books.emit('payment_intent.requires_action', {
        subscription,
        invoice,
        payment: result.payment,
      });
    }
    return;
  }
  await settleDeclined(books, subscription, invoice, result.payment);
}

async function settlePaid(
  books: Books,
  subscription: SandboxSubscription,
  invoice: SandboxInvoice,
  payment: SandboxPayment | null,
): Promise<void> {
  const { pendingItems, pendingPeriod } = invoice;
  books.change(invoice, { quiet: false, pendingItems: null, pendingPeriod: null });
  books.change(subscription, { latestPaidInvoice: invoice.id });
  if (invoice.reason === 'subscription_create') {
    books.change(subscription, { status: 'active' });
    books.emit('customer.subscription.created', { subscription });
    await keepCardFromToken(books, subscription);
  } else if (invoice.reason === 'subscription_update') {
    if (pendingItems) applyChange(books, subscription, pendingItems, pendingPeriod ?? null);
    books.emit('customer.subscription.updated', { subscription });
  } else {
    renewPeriod(books, subscription, invoice);
    books.emit('customer.subscription.updated', { subscription });
  }
  if (payment) books.emit('payment_intent.succeeded', { subscription, invoice, payment });
  books.emit('invoice.paid', { subscription, invoice, payment: payment ?? undefined });
}

/**
 * A plan change takes effect: the new items, and for a change of billing period the new
 * cycle too (anchored where it starts, so later renewals count from there).
 */
export function applyChange(
  books: Books,
  subscription: SandboxSubscription,
  items: SubscriptionItem[],
  period: PendingPeriod | null,
): void {
  if (!period) {
    books.change(subscription, { items });
    return;
  }
  books.change(subscription, {
    items,
    interval: period.interval,
    intervalCount: period.intervalCount,
    cycleAnchor: period.start,
    currentPeriodStart: period.start,
    currentPeriodEnd: period.end,
  });
}

/**
 * A paid renewal starts the period it billed; a past-due one paid late starts a fresh
 * period from now, so the customer gets the whole period they paid for.
 */
function renewPeriod(books: Books, subscription: SandboxSubscription, invoice: SandboxInvoice) {
  const now = books.now();
  if (subscription.status === 'past_due' && subscription.interval) {
    const end = periodEndAfter(now, now, subscription.interval, subscription.intervalCount);
    books.change(subscription, {
      status: 'active',
      cycleAnchor: now.toISOString(),
      currentPeriodStart: now.toISOString(),
      currentPeriodEnd: end.toISOString(),
    });
  } else if (subscription.status === 'active' && invoice.periodStart) {
    books.change(subscription, {
      currentPeriodStart: invoice.periodStart,
      currentPeriodEnd: invoice.periodEnd,
    });
  }
}

async function keepCardFromToken(books: Books, subscription: SandboxSubscription) {
  if (!subscription.cardFromToken || !subscription.card) return;
  books.change(subscription, { cardFromToken: false });
  const customer = await books.get('customer', subscription.customer, { lock: true });
  const card = await books.get('card', subscription.card, { lock: true });
  announceCard(books, card);
  await makeDefault(books, customer, card);
}

async function settleDeclined(
  books: Books,
  subscription: SandboxSubscription,
  invoice: SandboxInvoice,
  payment: SandboxPayment | null,
): Promise<void> {
  if (invoice.reason === 'subscription_create') {
    books.change(invoice, { status: 'void' });
    books.change(subscription, {
      status: 'incomplete_expired',
      endedAt: books.now().toISOString(),
      endReason: 'payment_failed',
    });
    // The card that came with the purchase goes with it, unannounced like the purchase.
    if (subscription.cardFromToken && subscription.card) {
      const card = await books.get('card', subscription.card, { lock: true });
      books.change(card, { detached: true });
    }
    return;
  }
  if (invoice.reason === 'subscription_update') {
    books.change(invoice, { status: 'void', pendingItems: null, pendingPeriod: null });
    return;
  }
  const wasActive = subscription.status === 'active';
  if (wasActive) books.change(subscription, { status: 'past_due' });
  if (payment) books.emit('payment_intent.payment_failed', { subscription, invoice, payment });
  books.emit('invoice.payment_failed', { subscription, invoice, payment: payment ?? undefined });
  if (wasActive) books.emit('customer.subscription.updated', { subscription });
}
