import type {
  GatewayDecline,
  GatewayDiscount,
  StartSubscriptionInput,
  StartSubscriptionOutcome,
} from '../gateway.ts';
import { type Books, inBooks } from './books.ts';
import { attachedCard, saveCard, spendToken } from './cards.ts';
import { chargeInvoice } from './charges.ts';
import { confirmationUrl } from './confirmation.ts';
import { itemsFor } from './customers-and-prices.ts';
import { openInvoice, periodLines, takeDiscount } from './invoices.ts';
import { periodEndAfter } from './periods.ts';
import type { SandboxContext } from './sandbox-context.ts';
import { SandboxRequestError } from './sandbox-errors.ts';
import type {
  SandboxCard,
  SandboxCustomer,
  SandboxDiscount,
  SandboxInvoice,
  SandboxSubscription,
} from './sandbox-objects.ts';
import { settle } from './settlement.ts';
import { invoiceSnapshot, subscriptionSnapshot } from './snapshots.ts';
import { attachDecline } from './test-cards.ts';

/** The outcome kept under the idempotency key: the objects as they stood, to answer again. */
type StoredStart =
  | { kind: 'completed'; subscription: SandboxSubscription; invoice: SandboxInvoice }
  | { kind: 'redirect'; url: string }
  | { kind: 'declined'; decline: GatewayDecline };

function answer(stored: StoredStart): StartSubscriptionOutcome {
  if (stored.kind === 'completed') {
    return {
      kind: 'completed',
      subscription: subscriptionSnapshot(stored.subscription),
      invoice: invoiceSnapshot(stored.invoice),
    };
  }
  // Not announced until its first payment is confirmed: nothing for us to hold yet.
  if (stored.kind === 'redirect') return { kind: 'redirect', url: stored.url, subscription: null };
  return stored;
}

function discountOf(discount: GatewayDiscount | null): SandboxDiscount | null {
  if (!discount) return null;
  const { percentOff, amountOff, periods } = discount;
  if ((percentOff === null) === (amountOff === null)) {
    throw new SandboxRequestError('invalid_request', 'A discount is a percentage or an amount');
  }
  if (periods !== null && (!Number.isInteger(periods) || periods < 1)) {
    throw new SandboxRequestError('invalid_request', 'A discount lasts 1 invoice or more');
  }
  return { code: discount.code, percentOff, amountOff, periodsLeft: periods };
}

/**
 * The card to charge: one made from the card form's token (saved, and made the default
 * once the purchase is paid), a saved one, or the customer's default. A card the processor
 * refuses to save declines the purchase at once.
 */
async function paymentCard(
  books: Books,
  customer: SandboxCustomer,
  input: StartSubscriptionInput,
): Promise<{ card: SandboxCard | null; fromToken: boolean } | { decline: GatewayDecline }> {
  if (input.paymentToken) {
    const details = await spendToken(books, input.paymentToken);
    const refused = attachDecline(details, books.now());
    if (refused) return { decline: refused };
    return { card: saveCard(books, customer, details), fromToken: true };
  }
  if (input.paymentMethodRef) {
    return {
      card: await attachedCard(books, customer.id, input.paymentMethodRef),
      fromToken: false,
    };
  }
  const card = customer.defaultCard ? await books.find('card', customer.defaultCard) : null;
  return { card, fromToken: false };
}

export function startSubscription(
  context: SandboxContext,
  input: StartSubscriptionInput,
): Promise<StartSubscriptionOutcome> {
  return inBooks(context, async (books) => {
    const record = await books.claimIdempotencyKey(input.idempotencyKey, 'start_subscription');
    if (record.outcome) return answer(record.outcome as StoredStart);
    const stored = await start(context, books, input);
    books.change(record, { outcome: structuredClone(stored) });
    return answer(stored);
  });
}

async function start(
  context: SandboxContext,
  books: Books,
  input: StartSubscriptionInput,
): Promise<StoredStart> {
  const customer = await books.get('customer', input.customerRef, { lock: true });
  const { items, plan } = await itemsFor(books, input.items);
  const discount = discountOf(input.discount);
  const payment = await paymentCard(books, customer, input);
  if ('decline' in payment) return { kind: 'declined', decline: payment.decline };

  const now = books.now();
  const periodEnd = plan.interval
    ? periodEndAfter(now, now, plan.interval, plan.intervalCount).toISOString()
    : null;
  const subscription = books.create('subscription', {
    customer: customer.id,
    status: 'incomplete',
    onetime: plan.onetime,
    card: payment.card?.id ?? null,
    cardFromToken: payment.fromToken,
    currency: plan.currency,
    items,
    interval: plan.interval,
    intervalCount: plan.intervalCount,
    cycleAnchor: now.toISOString(),
    currentPeriodStart: now.toISOString(),
    currentPeriodEnd: periodEnd,
    cancelAtPeriodEnd: false,
    canceledAt: null,
    endedAt: null,
    endReason: null,
    pausedAt: null,
    discount,
    periodDiscount: null,
    refunded: false,
    latestInvoice: null,
    latestPaidInvoice: null,
    returnUrl: input.returnUrl,
    metadata: { ...input.metadata },
  });
  const invoice = openInvoice(books, {
    subscription,
    reason: 'subscription_create',
    lines: periodLines(items, subscription.currentPeriodStart, periodEnd),
    discount: takeDiscount(books, subscription),
    periodStart: subscription.currentPeriodStart,
    periodEnd,
    quiet: true,
  });
  const result = chargeInvoice(books, invoice, payment.card, {
    offSession: false,
    returnUrl: input.returnUrl,
  });
  await settle(books, invoice, result);
  if (result.kind === 'paid') return { kind: 'completed', subscription, invoice };
  if (result.kind === 'requires_action') {
    return { kind: 'redirect', url: confirmationUrl(context.appUrl, result.payment.id) };
  }
  return { kind: 'declined', decline: result.decline };
}
