import type Stripe from 'stripe';
import { BILLING_INTERVALS, type BillingInterval } from '#shared/billing/billing-values.ts';
import {
  type GatewayInvoice,
  type GatewayPayment,
  GatewayRequestError,
  type GatewaySubscription,
} from '../gateway.ts';
import { addIntervals } from '../sandbox/periods.ts';
import { fromUnix, idOf, ourCurrency } from './stripe-client.ts';
import { asking } from './stripe-errors.ts';
import { type InvoiceRead, invoiceOfPayment, readInvoice } from './stripe-reads.ts';
import { amountRefunded, intentsOf, productIdOf, subscriptionRefOf } from './stripe-snapshots.ts';

// One-time purchases: a product sold for one period and never renewed goes through Checkout
// in `payment` mode, which leaves a PaymentIntent and (invoice_creation) a paid invoice, and
// no subscription at Stripe. Ours is made of them: its ref is the PaymentIntent's id (what
// the invoice, the refund and the Checkout Session all name), running from the payment for
// the interval bought, which travels on the invoice's metadata (and the price's). Nothing
// renews, so nothing at Stripe is stopped by a cancel: a cancel at period end is only a note
// on the invoice's metadata, read back with it, and the purchase runs out by itself.

/** The period bought, on the Checkout Session's and its invoice's metadata. */
export const ONETIME_INTERVAL = 'onetime_interval';
export const ONETIME_INTERVAL_COUNT = 'onetime_interval_count';
/** Our cancel at period end of a one-time purchase, noted on its invoice. */
const CANCEL_AT_PERIOD_END = 'cancel_at_period_end';
const CANCELED_AT = 'canceled_at';
/** Our own notes, left out of the snapshot's metadata. */
const NOTES = new Set([
  ONETIME_INTERVAL,
  ONETIME_INTERVAL_COUNT,
  CANCEL_AT_PERIOD_END,
  CANCELED_AT,
]);

/** A one-time purchase's ref is its PaymentIntent's id; a subscription's is `sub_…`. */
export const isOneTimeRef = (ref: string) => ref.startsWith('pi_');

export interface InvoiceSnapshots {
  raw: Stripe.Invoice;
  invoice: GatewayInvoice;
  payment: GatewayPayment | null;
  /** The one-time purchase the invoice paid for; null for any other invoice. */
  subscription: GatewaySubscription | null;
}

function periodOf(
  ...sources: (Stripe.Metadata | null | undefined)[]
): { interval: BillingInterval; count: number } | null {
  for (const metadata of sources) {
    const interval = metadata?.[ONETIME_INTERVAL] ?? metadata?.interval;
    const count = Number(metadata?.[ONETIME_INTERVAL_COUNT] ?? metadata?.intervalCount ?? 1);
    if (BILLING_INTERVALS.includes(interval as BillingInterval) && Number.isInteger(count)) {
      return { interval: interval as BillingInterval, count: Math.max(1, count) };
    }
  }
  return null;
}

/** The prices the invoice's lines name, read once each (their metadata has our product). */
async function pricesOf(
  stripe: Stripe,
  invoice: Stripe.Invoice,
): Promise<Map<string, Stripe.Price>> {
  const prices = new Map<string, Stripe.Price>();
  for (const line of invoice.lines.data) {
    const price = line.pricing?.price_details?.price;
    if (!price) continue;
    if (typeof price !== 'string') {
      prices.set(price.id, price);
      continue;
    }
    if (prices.has(price)) continue;
    prices.set(price, await asking('read a price', () => stripe.prices.retrieve(price)));
  }
  return prices;
}

/**
 * The one-time purchase an invoice read paid for, with the invoice as its (a paid invoice
 * of a Checkout in payment mode, with the period it bought); null for any other invoice.
 * `now` (billing's time) tells whether it has run out.
 */
export async function oneTimeOf(
  stripe: Stripe,
  read: InvoiceRead,
  now: Date,
): Promise<{ subscription: GatewaySubscription; invoice: GatewayInvoice } | null> {
  const { raw } = read;
  if (subscriptionRefOf(raw)) return null;
  const intent = intentsOf(raw).find((entry) => entry.status === 'succeeded');
  if (!intent || raw.status !== 'paid') return null;
  const prices = await pricesOf(stripe, raw);
  const lines = raw.lines.data.flatMap((line) => {
    const priceRef = idOf(line.pricing?.price_details?.price);
    const price = priceRef ? prices.get(priceRef) : undefined;
    return price ? [{ line, price }] : [];
  });
  const period = periodOf(raw.metadata, lines[0]?.price.metadata);
  if (!period || lines.length === 0) return null;
  const start = fromUnix(raw.status_transitions.paid_at) ?? new Date(intent.created * 1000);
  const end = addIntervals(start, period.interval, period.count);
  const refunded = raw.amount_paid > 0 && amountRefunded(raw) >= raw.amount_paid;
  const expired = !refunded && end.getTime() <= now.getTime();
  const metadata = raw.metadata ?? {};
  const cancelAtPeriodEnd = !refunded && metadata[CANCEL_AT_PERIOD_END] === 'true';
  const ours = Object.fromEntries(Object.entries(metadata).filter(([key]) => !NOTES.has(key)));
  const invoice: GatewayInvoice = {
    ...read.invoice,
    subscriptionRef: intent.id,
    reason: 'subscription_create',
    lines: read.invoice.lines.map((line) => ({
      ...line,
      productId:
        line.productId ?? productIdOf(line.priceRef ? prices.get(line.priceRef) : undefined),
      periodStart: start,
      periodEnd: end,
    })),
    periodStart: start,
    periodEnd: end,
  };
  const subscription: GatewaySubscription = {
    ref: intent.id,
    customerRef: idOf(raw.customer) ?? idOf(intent.customer) ?? '',
    status: refunded ? 'refunded' : expired ? 'expired' : cancelAtPeriodEnd ? 'canceled' : 'active',
    onetime: true,
    paymentMethodType: 'card',
    paymentMethodRef: idOf(intent.payment_method),
    currency: ourCurrency(raw.currency),
    items: lines.map(({ line, price }) => {
      const quantity = line.quantity ?? 1;
      return {
        priceRef: price.id,
        productId: productIdOf(price),
        quantity,
        amount: price.unit_amount ?? (quantity ? Math.round(line.amount / quantity) : line.amount),
      };
    }),
    currentPeriodStart: start,
    currentPeriodEnd: end,
    cancelAtPeriodEnd,
    canceledAt: cancelAtPeriodEnd ? fromUnix(Number(metadata[CANCELED_AT]) || null) : null,
    // Given back: access ends when it is read so; run out: at the period's end.
    endedAt: refunded ? now : expired ? end : null,
    pausedAt: null,
    discountCode: read.invoice.discountCode,
    // A one-time purchase is discounted once, on its only invoice.
    discountPeriodsLeft: read.invoice.discountCode ? 0 : null,
    metadata: ours,
    latestInvoiceRef: raw.id ?? null,
    updatedAt: read.invoice.updatedAt,
  };
  return { subscription, invoice };
}

/** An invoice with the snapshots it gives now; null when Stripe has no such invoice. */
export async function readInvoiceSnapshots(
  stripe: Stripe,
  ref: string,
  now: Date,
): Promise<InvoiceSnapshots | null> {
  const read = await readInvoice(stripe, ref);
  if (!read) return null;
  const onetime = await oneTimeOf(stripe, read, now);
  return {
    raw: read.raw,
    invoice: onetime?.invoice ?? read.invoice,
    payment: read.payment,
    subscription: onetime?.subscription ?? null,
  };
}

/** A one-time purchase by its ref (the PaymentIntent), with its invoice; null if none. */
export async function readOneTime(
  stripe: Stripe,
  ref: string,
  now: Date,
): Promise<(InvoiceSnapshots & { subscription: GatewaySubscription }) | null> {
  const invoiceRef = await invoiceOfPayment(stripe, ref);
  const read = invoiceRef ? await readInvoiceSnapshots(stripe, invoiceRef, now) : null;
  if (!read?.subscription) return null;
  return { ...read, subscription: read.subscription };
}

async function held(stripe: Stripe, ref: string, now: Date) {
  const read = await readOneTime(stripe, ref, now);
  if (!read) throw new GatewayRequestError('not_found', `No paid one-time purchase ${ref}`);
  return read;
}

const ended = (subscription: GatewaySubscription) =>
  subscription.status === 'expired' || subscription.status === 'refunded';

async function note(
  stripe: Stripe,
  invoiceRef: string,
  what: string,
  metadata: Record<string, string>,
): Promise<void> {
  await asking(what, () => stripe.invoices.update(invoiceRef, { metadata }));
}

/**
 * A cancel at period end: nothing renews at Stripe, so it is only noted (on the invoice)
 * and the purchase runs to its end. Ending it now is a refund's work, not a cancel's.
 */
export async function cancelOneTime(
  stripe: Stripe,
  ref: string,
  options: { atPeriodEnd: boolean },
  now: Date,
): Promise<GatewaySubscription> {
  if (!options.atPeriodEnd) {
    throw new GatewayRequestError('invalid_state', 'a paid one-time period is ended by a refund');
  }
  const read = await held(stripe, ref, now);
  if (read.subscription.cancelAtPeriodEnd) return read.subscription;
  if (ended(read.subscription)) {
    throw new GatewayRequestError('invalid_state', `the one-time purchase ${ref} has ended`);
  }
  const invoiceRef = read.raw.id ?? '';
  await note(stripe, invoiceRef, 'cancel a one-time purchase', {
    [CANCEL_AT_PERIOD_END]: 'true',
    [CANCELED_AT]: String(Math.floor(now.getTime() / 1000)),
  });
  return (await held(stripe, ref, now)).subscription;
}

/** Undoes a cancel at period end of a one-time purchase still running. */
export async function resumeOneTime(
  stripe: Stripe,
  ref: string,
  now: Date,
): Promise<GatewaySubscription> {
  const read = await held(stripe, ref, now);
  if (!read.subscription.cancelAtPeriodEnd) return read.subscription;
  if (ended(read.subscription)) {
    throw new GatewayRequestError('invalid_state', `the one-time purchase ${ref} has ended`);
  }
  // An empty value removes a metadata key at Stripe.
  await note(stripe, read.raw.id ?? '', 'resume a one-time purchase', {
    [CANCEL_AT_PERIOD_END]: '',
    [CANCELED_AT]: '',
  });
  return (await held(stripe, ref, now)).subscription;
}

/** What a one-time purchase cannot do: it has no plan to change, nothing to pause or dun. */
export function notForOneTime(ref: string, what: string): never {
  throw new GatewayRequestError('invalid_state', `a one-time purchase (${ref}) cannot ${what}`);
}
