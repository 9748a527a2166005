import type Stripe from 'stripe';
import type { InvoiceStatus, PaymentStatus } from '#shared/billing/billing-values.ts';
import type { SubscriptionStatus } from '#shared/subscription/actions.ts';
import type {
  GatewayCard,
  GatewayInvoice,
  GatewayPayment,
  GatewayRefund,
  GatewaySubscription,
  InvoiceReason,
} from '../gateway.ts';
import { fromUnix, idOf, ourCurrency } from './stripe-client.ts';

// Stripe's objects in our vocabulary. Each snapshot is of an object just read from Stripe's
// API (never of a webhook's copy), so `updatedAt` is the time of that read: the later read
// wins, whatever order the events came in.

/** Set on a subscription we end for non-payment: Stripe's status is `canceled` either way. */
export const ENDED_FOR = 'ended_for';
export const NON_PAYMENT = 'non_payment';
/** When we paused its collection (Stripe keeps no time of its own for pause_collection). */
export const PAUSED_AT = 'paused_at';

/** §4 statuses from Stripe's. */
export function ourStatus(
  subscription: Stripe.Subscription,
  refunded: boolean,
): SubscriptionStatus {
  switch (subscription.status) {
    case 'active':
    case 'trialing':
      // Collection paused: the customer has paused the plan (§4 paused).
      if (subscription.pause_collection) return 'paused';
      // Still running, but set to end: §4 calls that canceled.
      return subscription.cancel_at_period_end || subscription.cancel_at ? 'canceled' : 'active';
    case 'paused':
      return 'paused';
    // Owed and not yet paid: a first payment not confirmed, or a renewal refused.
    case 'incomplete':
    case 'past_due':
      return 'on_hold';
    case 'unpaid':
      return 'failed';
    case 'canceled': {
      const nonPayment =
        subscription.metadata[ENDED_FOR] === NON_PAYMENT ||
        subscription.cancellation_details?.reason === 'payment_failed';
      if (nonPayment) return 'failed';
      return refunded ? 'refunded' : 'expired';
    }
    case 'incomplete_expired':
      return 'expired';
    default:
      return 'on_hold';
  }
}

function couponOf(
  discount: string | Stripe.Discount | Stripe.DeletedDiscount,
): Stripe.Coupon | null {
  if (typeof discount === 'string') return null;
  const coupon = discount.source.coupon;
  return coupon && typeof coupon !== 'string' ? coupon : null;
}

/** Our coupon's code, which we record on the Stripe coupon we make for it. */
export function couponCode(coupon: Stripe.Coupon): string {
  return coupon.metadata?.code ?? coupon.name ?? coupon.id;
}

function discountOf(subscription: Stripe.Subscription, periodStart: number, periodEnd: number) {
  for (const discount of subscription.discounts) {
    const coupon = couponOf(discount);
    if (!coupon || typeof discount === 'string') continue;
    if (coupon.duration === 'forever') return { code: couponCode(coupon), left: null };
    if (coupon.duration === 'once') return { code: couponCode(coupon), left: 0 };
    // Stripe counts a repeating coupon in months to an end date; we count invoices: the
    // periods that still start before that date (an approximation for non-monthly plans).
    const length = Math.max(1, periodEnd - periodStart);
    const left = discount.end ? Math.max(0, Math.ceil((discount.end - periodEnd) / length)) : null;
    return { code: couponCode(coupon), left };
  }
  return { code: null, left: null };
}

export function productIdOf(price: Stripe.Price | string | null | undefined): number | null {
  if (!price || typeof price === 'string') return null;
  const id = Number(price.metadata?.productId);
  return Number.isInteger(id) && id > 0 ? id : null;
}

export function subscriptionSnapshot(
  subscription: Stripe.Subscription,
  options: { refunded: boolean; readAt: Date },
): GatewaySubscription {
  const first = subscription.items.data[0];
  const periodStart = first?.current_period_start ?? subscription.start_date;
  const periodEnd = first?.current_period_end ?? null;
  const discount = discountOf(subscription, periodStart, periodEnd ?? periodStart);
  const pausedAt = subscription.pause_collection
    ? (fromUnix(Number(subscription.metadata[PAUSED_AT]) || null) ?? options.readAt)
    : null;
  return {
    ref: subscription.id,
    customerRef: idOf(subscription.customer) ?? '',
    status: ourStatus(subscription, options.refunded),
    onetime: false,
    paymentMethodType: 'card',
    paymentMethodRef: idOf(subscription.default_payment_method),
    currency: ourCurrency(subscription.currency),
    items: subscription.items.data.map((item) => ({
      priceRef: item.price.id,
      productId: productIdOf(item.price),
      quantity: item.quantity ?? 1,
      amount: item.price.unit_amount ?? 0,
    })),
    currentPeriodStart: fromUnix(periodStart),
    currentPeriodEnd: fromUnix(periodEnd),
    cancelAtPeriodEnd: subscription.cancel_at_period_end || subscription.cancel_at !== null,
    canceledAt: fromUnix(subscription.canceled_at),
    endedAt: fromUnix(subscription.ended_at),
    pausedAt,
    discountCode: discount.code,
    discountPeriodsLeft: discount.left,
    metadata: { ...subscription.metadata },
    updatedAt: options.readAt,
  };
}

const INVOICE_STATUSES: Record<string, InvoiceStatus> = {
  draft: 'draft',
  open: 'open',
  paid: 'paid',
  void: 'void',
  uncollectible: 'uncollectible',
};

const REASONS: Record<string, InvoiceReason> = {
  subscription_create: 'subscription_create',
  subscription_cycle: 'subscription_cycle',
  subscription_update: 'subscription_update',
};

/** The invoice's payment intents (invoice.payments, expanded), newest first. */
export function intentsOf(invoice: Stripe.Invoice): Stripe.PaymentIntent[] {
  return (invoice.payments?.data ?? []).flatMap((payment) => {
    const intent = payment.payment.payment_intent;
    return intent && typeof intent !== 'string' ? [intent] : [];
  });
}

function chargeOf(intent: Stripe.PaymentIntent): Stripe.Charge | null {
  return intent.latest_charge && typeof intent.latest_charge !== 'string'
    ? intent.latest_charge
    : null;
}

export function amountRefunded(invoice: Stripe.Invoice): number {
  return intentsOf(invoice).reduce(
    (sum, intent) => sum + (chargeOf(intent)?.amount_refunded ?? 0),
    0,
  );
}

export function subscriptionRefOf(invoice: Stripe.Invoice): string | null {
  return idOf(invoice.parent?.subscription_details?.subscription);
}

export function invoiceSnapshot(invoice: Stripe.Invoice, readAt: Date): GatewayInvoice {
  const lines = invoice.lines.data.map((line) => {
    const details = line.parent?.subscription_item_details ?? line.parent?.invoice_item_details;
    const price = line.pricing?.price_details?.price;
    const quantity = line.quantity ?? 1;
    return {
      description: line.description ?? '',
      priceRef: idOf(price),
      productId: productIdOf(typeof price === 'string' ? null : price),
      quantity,
      unitAmount: quantity ? Math.round(line.amount / quantity) : line.amount,
      amount: line.amount,
      periodStart: fromUnix(line.period.start),
      periodEnd: fromUnix(line.period.end),
      proration: details?.proration ?? false,
    };
  });
  // The period billed is the plan's line's (Stripe's invoice period is the one before).
  const billed = lines.find((line) => !line.proration && line.amount >= 0) ?? lines[0];
  const discount = (invoice.total_discount_amounts ?? []).reduce(
    (sum, entry) => sum + entry.amount,
    0,
  );
  const tax = (invoice.total_taxes ?? []).reduce((sum, entry) => sum + entry.amount, 0);
  const coupon = invoice.discounts.map(couponOf).find((found) => found !== null);
  const failure = intentsOf(invoice).find(
    (intent) => intent.last_payment_error,
  )?.last_payment_error;
  return {
    ref: invoice.id ?? '',
    customerRef: idOf(invoice.customer) ?? '',
    subscriptionRef: subscriptionRefOf(invoice),
    status: INVOICE_STATUSES[invoice.status ?? 'draft'] ?? 'draft',
    reason: REASONS[invoice.billing_reason ?? ''] ?? 'subscription_create',
    currency: ourCurrency(invoice.currency),
    lines,
    subtotal: invoice.subtotal,
    discount,
    tax,
    total: invoice.total,
    amountPaid: invoice.amount_paid,
    amountRefunded: amountRefunded(invoice),
    discountCode: coupon ? couponCode(coupon) : null,
    periodStart: billed?.periodStart ?? fromUnix(invoice.period_start),
    periodEnd: billed?.periodEnd ?? fromUnix(invoice.period_end),
    attemptCount: invoice.attempt_count,
    lastFailure: invoice.status === 'paid' ? null : (failure?.message ?? null),
    createdAt: new Date(invoice.created * 1000),
    paidAt: fromUnix(invoice.status_transitions.paid_at),
    updatedAt: readAt,
  };
}

/**
 * The invoice's latest payment. Our books take a failed payment as final, while Stripe
 * retries the same PaymentIntent: so it is failed only once its invoice is closed, and
 * pending (with the refusal noted) while Stripe may still collect it.
 */
export function paymentSnapshot(invoice: Stripe.Invoice): GatewayPayment | null {
  const intent = intentsOf(invoice)[0];
  if (!intent) return null;
  let status: PaymentStatus;
  if (intent.status === 'succeeded') status = 'succeeded';
  else if (intent.status === 'requires_action' || intent.status === 'requires_confirmation')
    status = 'requires_action';
  else if (intent.status === 'canceled' || (intent.last_payment_error && invoice.status !== 'open'))
    status = 'failed';
  else status = 'pending';
  const error = intent.last_payment_error;
  return {
    ref: intent.id,
    invoiceRef: invoice.id ?? '',
    customerRef: idOf(intent.customer) ?? idOf(invoice.customer) ?? '',
    status,
    amount: intent.amount,
    currency: ourCurrency(intent.currency),
    paymentMethodRef: idOf(intent.payment_method),
    failureCode: error ? (error.decline_code ?? error.code ?? null) : null,
    failureMessage: error?.message ?? null,
    createdAt: new Date(intent.created * 1000),
  };
}

export function refundSnapshot(refund: Stripe.Refund, invoiceRef: string): GatewayRefund {
  return {
    ref: refund.id,
    paymentRef: idOf(refund.payment_intent) ?? idOf(refund.charge) ?? '',
    invoiceRef,
    amount: refund.amount,
    currency: ourCurrency(refund.currency),
    reason: refund.metadata?.reason ?? refund.reason ?? null,
    createdAt: new Date(refund.created * 1000),
  };
}

export function cardSnapshot(
  method: Stripe.PaymentMethod,
  customerRef: string,
  defaultRef: string | null,
  readAt: Date,
): GatewayCard {
  const card = method.card;
  const year = card?.exp_year ?? 0;
  return {
    ref: method.id,
    customerRef,
    brand: card?.brand ?? 'unknown',
    last4: card?.last4 ?? '',
    expMonth: card?.exp_month ?? 0,
    // Stripe gives four digits; a two-digit year would be this century's.
    expYear: year < 100 ? 2000 + year : year,
    isDefault: method.id === defaultRef,
    updatedAt: readAt,
  };
}
