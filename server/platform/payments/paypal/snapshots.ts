import {
  type BillingPlan,
  CaptureStatus,
  SubscriptionStatus as PayPalStatus,
  type Refund,
  type Subscription,
  type SubscriptionTransactionDetails,
  TenureType,
} from '@paypal/paypal-server-sdk';
import type { BillingInterval } from '#shared/billing/billing-values.ts';
import type { SubscriptionStatus } from '#shared/subscription/actions.ts';
import type {
  GatewayInvoice,
  GatewayPayment,
  GatewayRefund,
  GatewaySubscription,
} from '../gateway.ts';
import { addIntervals } from '../sandbox/periods.ts';
import { fromPayPalMoney } from './paypal-money.ts';

// PayPal's objects in our vocabulary, in one place: what our calls answer and what a
// webhook's read-back yields go through the same functions, so they cannot disagree.
//
// PayPal has no invoices for subscriptions: each payment it took (a "sale", listed among the
// subscription's transactions) is one paid invoice of ours, its ref the transaction id, and
// also that invoice's payment. Its period is the plan's cycle from the payment's time.

/** A subscription as read from PayPal, with what is needed to put it in our terms. */
export interface SubscriptionRead {
  subscription: Subscription;
  /** The plan and the addons' plans, by id. */
  plans: ReadonlyMap<string, BillingPlan>;
  transactions: SubscriptionTransactionDetails[];
  readAt: Date;
}

/**
 * Why we stopped or suspended a subscription, sent as PayPal's `reason` and read back as its
 * `status_change_note`: PayPal has one CANCELLED and one SUSPENDED state, and §4 tells a
 * cancel at period end from an end now or for non-payment, and a pause from a failed payment.
 */
export const STATUS_NOTES = {
  atPeriodEnd: 'Canceled by the customer: access lasts until the paid period ends',
  now: 'Ended at once',
  nonPayment: 'Ended for non-payment',
  pause: 'Paused by the customer',
} as const;

/** PayPal has no customer object: our user is its custom_id's first part. */
export const customerRefOf = (userId: string | number) => `user-${userId}`;

/** custom_id (127 characters at most): `<userId>` or `<userId>;<addon plan id>,…`. */
export function customIdFor(userId: string, addonPlanIds: readonly string[]): string {
  return addonPlanIds.length > 0 ? `${userId};${addonPlanIds.join(',')}` : userId;
}

export function readCustomId(customId: string | undefined): {
  userId: string;
  addonPlanIds: string[];
} {
  const [userId = '', addons = ''] = (customId ?? '').split(';');
  return { userId, addonPlanIds: addons ? addons.split(',') : [] };
}

const UNITS: Record<string, BillingInterval> = {
  DAY: 'day',
  WEEK: 'week',
  MONTH: 'month',
  YEAR: 'year',
};

/** A plan's regular cycle: its price and how often it is billed. */
export function regularCycle(plan: BillingPlan | undefined) {
  const cycle = plan?.billingCycles?.find((each) => each.tenureType === TenureType.Regular);
  if (!cycle) return null;
  const interval = UNITS[cycle.frequency.intervalUnit];
  if (!interval) return null;
  return {
    ...fromPayPalMoney(cycle.pricingScheme?.fixedPrice),
    interval,
    intervalCount: cycle.frequency.intervalCount ?? 1,
  };
}

const date = (value: string | undefined) => (value ? new Date(value) : null);

function periodOf(read: SubscriptionRead, from: Date) {
  const cycle = regularCycle(read.plans.get(read.subscription.planId ?? ''));
  return cycle ? addIntervals(from, cycle.interval, cycle.intervalCount) : null;
}

const MONEY_TAKEN: readonly string[] = [
  CaptureStatus.Completed,
  CaptureStatus.PartiallyRefunded,
  CaptureStatus.Refunded,
];

/** The payments PayPal took, oldest first (a declined attempt is no invoice of ours). */
function paymentsTaken(read: SubscriptionRead) {
  return read.transactions
    .filter((each) => MONEY_TAKEN.includes(each.status ?? '') || each.status === 'PENDING')
    .sort((a, b) => a.time.localeCompare(b.time));
}

function lastPaidPeriod(read: SubscriptionRead) {
  const { billingInfo, startTime } = read.subscription;
  const paidAt = date(billingInfo?.lastPayment?.time);
  const start = paidAt ?? date(startTime);
  return { start, end: paidAt ? periodOf(read, paidAt) : null };
}

/** §4 statuses from PayPal's; null while the buyer has not approved it (nothing to grant). */
export function ourStatus(read: SubscriptionRead): SubscriptionStatus | null {
  const { status, statusChangeNote, billingInfo } = read.subscription;
  const failing =
    (billingInfo?.failedPaymentsCount ?? 0) > 0 &&
    fromPayPalMoney(billingInfo?.outstandingBalance).amount > 0;
  switch (status) {
    case PayPalStatus.Active:
      // PayPal is retrying a failed payment: owed, access in its grace period.
      return failing ? 'on_hold' : 'active';
    case PayPalStatus.Suspended:
      // Suspended by PayPal after too many failed payments, not by the customer's pause.
      return statusChangeNote !== STATUS_NOTES.pause && failing ? 'on_hold' : 'paused';
    case PayPalStatus.Cancelled: {
      if (statusChangeNote === STATUS_NOTES.nonPayment) return 'failed';
      const latest = paymentsTaken(read).at(-1);
      if (statusChangeNote === STATUS_NOTES.now) {
        return latest?.status === CaptureStatus.Refunded ? 'refunded' : 'expired';
      }
      // PayPal stops billing at once; the paid period is still the customer's (a cancel at
      // PayPal's own site included).
      const { end } = lastPaidPeriod(read);
      return end && read.readAt < end ? 'canceled' : 'expired';
    }
    case PayPalStatus.Expired:
      return 'expired';
    default:
      return null;
  }
}

export function subscriptionSnapshot(read: SubscriptionRead): GatewaySubscription | null {
  const status = ourStatus(read);
  if (!status) return null;
  const { subscription } = read;
  const { userId, addonPlanIds } = readCustomId(subscription.customId);
  const planId = subscription.planId ?? '';
  const items = [planId, ...addonPlanIds].map((priceRef) => ({
    priceRef,
    productId: null,
    quantity: 1,
    amount: regularCycle(read.plans.get(priceRef))?.amount ?? 0,
  }));
  const currency = regularCycle(read.plans.get(planId))?.currency ?? '';
  const { start, end: paidEnd } = lastPaidPeriod(read);
  const latestPayment = paymentsTaken(read).at(-1);
  const nextBilling = date(subscription.billingInfo?.nextBillingTime);
  const end = status === 'active' || status === 'on_hold' ? (nextBilling ?? paidEnd) : paidEnd;
  const changedAt = date(subscription.statusUpdateTime) ?? read.readAt;
  const ended = status === 'expired' || status === 'failed' || status === 'refunded';
  // A cancel at period end ends when that period does; the others when PayPal stopped it.
  const endedAt =
    ended && subscription.statusChangeNote !== STATUS_NOTES.now && paidEnd && paidEnd < read.readAt
      ? paidEnd
      : changedAt;
  return {
    ref: subscription.id ?? '',
    customerRef: customerRefOf(userId),
    status,
    onetime: false,
    paymentMethodType: 'paypal',
    paymentMethodRef: null,
    currency,
    items,
    currentPeriodStart: start,
    currentPeriodEnd: end,
    cancelAtPeriodEnd: status === 'canceled',
    canceledAt: subscription.status === PayPalStatus.Cancelled ? changedAt : null,
    endedAt: ended ? endedAt : null,
    pausedAt: status === 'paused' ? changedAt : null,
    discountCode: null,
    discountPeriodsLeft: null,
    metadata: userId ? { userId } : {},
    // The newest payment PayPal took (or is taking): the ref of its invoice (invoiceSnapshot).
    ...(latestPayment ? { latestInvoiceRef: latestPayment.id } : {}),
    updatedAt: read.readAt,
  };
}

/**
 * One payment PayPal took, as our invoice, as it stood at our read (`updatedAt` is the read's
 * time, so a later read wins over an earlier one whatever order they commit in); null when
 * the subscription took no such payment. `refundedKnown`: PayPal's total refunded of it, as
 * the refunds we know of tell it (RefundLedger), since the list says only that it was.
 */
export function invoiceSnapshot(
  read: SubscriptionRead,
  transactionId: string,
  refundedKnown = 0,
): GatewayInvoice | null {
  const taken = paymentsTaken(read);
  const index = taken.findIndex((each) => each.id === transactionId);
  const transaction = taken[index];
  if (!transaction) return null;
  const { subscription } = read;
  const { userId, addonPlanIds } = readCustomId(subscription.customId);
  const gross = fromPayPalMoney(transaction.amountWithBreakdown.grossAmount);
  const paid = transaction.status !== 'PENDING';
  const at = new Date(transaction.time);
  const periodEnd = periodOf(read, at);
  const lines = [subscription.planId ?? '', ...addonPlanIds].map((priceRef) => {
    const plan = read.plans.get(priceRef);
    const amount = regularCycle(plan)?.amount ?? 0;
    return {
      description: plan?.name ?? 'PayPal subscription',
      priceRef,
      productId: null,
      quantity: 1,
      unitAmount: amount,
      amount,
      periodStart: at,
      periodEnd,
      proration: false,
    };
  });
  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
  // Never less than PayPal has recorded: all of it once REFUNDED, else what its refunds said.
  const refunded = Math.min(
    Math.max(refundedKnown, transaction.status === CaptureStatus.Refunded ? gross.amount : 0),
    gross.amount,
  );
  return {
    ref: transaction.id,
    customerRef: customerRefOf(userId),
    subscriptionRef: subscription.id ?? null,
    status: paid ? 'paid' : 'open',
    reason: index === 0 ? 'subscription_create' : 'subscription_cycle',
    currency: gross.currency,
    lines,
    subtotal,
    discount: Math.max(subtotal - gross.amount, 0),
    tax: 0,
    total: gross.amount,
    amountPaid: paid ? gross.amount : 0,
    amountRefunded: refunded,
    discountCode: null,
    periodStart: at,
    periodEnd,
    attemptCount: 1,
    lastFailure: null,
    createdAt: at,
    paidAt: paid ? at : null,
    // The time of our read, not the payment's: reads of one payment (PENDING, then
    // COMPLETED) have one `at`, and the later read must be the one that stands.
    updatedAt: read.readAt,
  };
}

export function paymentSnapshot(invoice: GatewayInvoice): GatewayPayment {
  return {
    ref: invoice.ref,
    invoiceRef: invoice.ref,
    customerRef: invoice.customerRef,
    status: invoice.status === 'paid' ? 'succeeded' : 'pending',
    amount: invoice.total,
    currency: invoice.currency,
    paymentMethodRef: null,
    failureCode: null,
    failureMessage: null,
    createdAt: invoice.createdAt,
  };
}

export function refundSnapshot(refund: Refund, captureId: string): GatewayRefund {
  const { amount, currency } = fromPayPalMoney(refund.amount);
  return {
    ref: refund.id ?? '',
    paymentRef: captureId,
    invoiceRef: captureId,
    amount,
    currency,
    reason: refund.noteToPayer ?? null,
    createdAt: date(refund.createTime) ?? new Date(),
  };
}

/** The capture a refund gives back, from its `up` link (…/v2/payments/captures/{id}). */
export function refundedCaptureId(refund: Refund): string | null {
  const up = refund.links?.find((link) => link.rel === 'up')?.href;
  return up ? (/\/captures\/([^/?#]+)/.exec(up)?.[1] ?? null) : null;
}

/** The total refunded so far of the capture, as the refund's read-back tells it. */
export function refundedTotal(refund: Refund): number | null {
  const total = refund.sellerPayableBreakdown?.totalRefundedAmount;
  return total ? fromPayPalMoney(total).amount : null;
}
