import type { InvoiceStatus, PaymentStatus } from '#shared/billing/billing-values.ts';
import type {
  GatewayInvoice,
  GatewayPayment,
  GatewayRefund,
  GatewaySubscription,
} from '../gateway.ts';
import { addIntervals } from '../sandbox/periods.ts';
import {
  type CryptomusInvoice,
  customerRefOf,
  minorAmount,
  type OrderNote,
  readNote,
} from './cryptomus-objects.ts';

// A Cryptomus invoice, as its status call answers it, in our vocabulary. Cryptomus sells one
// period at a time: a paid invoice is a one-time subscription (ref = our order id) running
// from the payment for the interval bought. While the payment is seen but not yet confirmed
// (§3 "crypto approval pending") there is only our invoice, finalizing, and nothing granted.

/** Where an invoice stands for us, from Cryptomus's status (doc "Payment statuses"). */
export type Stage = 'awaiting' | 'confirming' | 'paid' | 'refunded' | 'void';

export function stageOf(invoice: Pick<CryptomusInvoice, 'status' | 'is_final'>): Stage {
  switch (invoice.status) {
    case 'paid':
    case 'paid_over':
      // Paid is only believed once Cryptomus says it is final.
      return invoice.is_final ? 'paid' : 'confirming';
    // A refund asked for or failed: what was paid still stands.
    case 'refund_process':
    case 'refund_fail':
      return 'paid';
    case 'refund_paid':
      return 'refunded';
    case 'wrong_amount':
    case 'fail':
    case 'cancel':
    case 'system_fail':
      return 'void';
    // No transaction on the chain yet.
    case 'check':
      return 'awaiting';
    // process, confirm_check, wrong_amount_waiting, locked (AML), and any status of theirs
    // we do not know: money may be on its way, nothing is given.
    default:
      return 'confirming';
  }
}

export interface CryptomusSnapshots {
  subscription?: GatewaySubscription;
  invoice: GatewayInvoice;
  payment?: GatewayPayment;
  refund?: GatewayRefund;
}

function dateOr(value: string | null | undefined, fallback: Date): Date {
  const parsed = value ? new Date(value) : null;
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed : fallback;
}

const INVOICE_STATUS: Record<Stage, InvoiceStatus> = {
  awaiting: 'finalizing',
  confirming: 'finalizing',
  paid: 'paid',
  refunded: 'paid',
  void: 'void',
};

function paymentStatus(stage: Stage, invoice: CryptomusInvoice): PaymentStatus | null {
  if (stage === 'confirming') return 'pending';
  if (stage === 'paid' || stage === 'refunded') return 'succeeded';
  // A customer who never paid (cancel) made no payment at all.
  if (stage === 'void' && invoice.status !== 'cancel') return 'failed';
  return null;
}

/**
 * When access starts: the same instant in every state the invoice goes through once paid.
 *
 * Cryptomus's payment information names no payment time, only `created_at` and `updated_at`,
 * and `updated_at` moves with every later change: a refund asked for (refund_process), or
 * failed (refund_fail), is a change too. Anchoring at `updated_at` while paid and at anything
 * else afterwards moved the period whenever a refund was attempted. Nothing about the payment
 * itself can be written back onto the invoice (its additional_data is fixed at creation), so
 * the period is anchored at `created_at`, the one time Cryptomus never changes: paid,
 * refund_process, refund_fail and refund_paid all answer the same period, in any order they
 * are read. The cost is small and bounded: an invoice is paid within its lifetime (an hour,
 * INVOICE_LIFETIME_SECONDS) plus the chain's confirmations, so the period counts from at most
 * that long before the money arrived.
 */
function paidAt(invoice: CryptomusInvoice, stage: Stage, now: Date): Date | null {
  if (stage !== 'paid' && stage !== 'refunded') return null;
  return dateOr(invoice.created_at, now);
}

/**
 * The snapshots of one invoice as read at `now` (their `updatedAt`: a later read wins).
 * Null for an invoice that is not one of our orders (no order note in additional_data).
 */
export function snapshotsOf(invoice: CryptomusInvoice, now: Date): CryptomusSnapshots | null {
  const note = readNote(invoice.additional_data);
  if (!note) return null;
  const stage = stageOf(invoice);
  const customerRef = customerRefOf(note.u);
  const total = minorAmount(invoice.amount);
  const createdAt = dateOr(invoice.created_at, now);
  const start = paidAt(invoice, stage, now);
  const end = start ? addIntervals(start, note.i, note.n) : null;
  const granted = stage === 'paid' || stage === 'refunded';
  const refundedAt = stage === 'refunded' ? dateOr(invoice.updated_at, now) : null;
  const lines = note.l.map(([productId, amount, name]) => ({
    description: name,
    priceRef: String(productId),
    productId,
    quantity: 1,
    unitAmount: amount,
    amount,
    periodStart: start,
    periodEnd: end,
    proration: false,
  }));
  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
  const snapshots: CryptomusSnapshots = {
    invoice: {
      ref: invoice.uuid,
      customerRef,
      subscriptionRef: invoice.order_id,
      status: INVOICE_STATUS[stage],
      reason: 'subscription_create',
      currency: invoice.currency,
      lines,
      subtotal,
      discount: Math.max(subtotal - total, 0),
      tax: 0,
      total,
      amountPaid: granted ? total : 0,
      amountRefunded: stage === 'refunded' ? total : 0,
      discountCode: note.d,
      periodStart: start,
      periodEnd: end,
      attemptCount: stage === 'awaiting' ? 0 : 1,
      lastFailure: stage === 'void' ? invoice.status : null,
      createdAt,
      paidAt: start,
      updatedAt: now,
    },
  };
  const payment = paymentStatus(stage, invoice);
  if (payment) {
    snapshots.payment = {
      ref: invoice.uuid,
      invoiceRef: invoice.uuid,
      customerRef,
      status: payment,
      amount: total,
      currency: invoice.currency,
      paymentMethodRef: null,
      failureCode: payment === 'failed' ? invoice.status : null,
      failureMessage: payment === 'failed' ? `Cryptomus: ${invoice.status}` : null,
      createdAt,
    };
  }
  if (start && end) snapshots.subscription = subscriptionOf(invoice, note, start, end, now);
  if (refundedAt) {
    snapshots.refund = {
      ref: `${invoice.uuid}:refund`,
      paymentRef: invoice.uuid,
      invoiceRef: invoice.uuid,
      amount: total,
      currency: invoice.currency,
      reason: null,
      createdAt: refundedAt,
    };
  }
  return snapshots;
}

function subscriptionOf(
  invoice: CryptomusInvoice,
  note: OrderNote,
  start: Date,
  end: Date,
  now: Date,
): GatewaySubscription {
  const refunded = stageOf(invoice) === 'refunded';
  // One-time access ends by itself: past its end it is expired, whoever looks.
  const expired = !refunded && end.getTime() <= now.getTime();
  return {
    ref: invoice.order_id,
    customerRef: customerRefOf(note.u),
    status: refunded ? 'refunded' : expired ? 'expired' : 'active',
    onetime: true,
    paymentMethodType: 'crypto',
    paymentMethodRef: null,
    currency: invoice.currency,
    items: note.l.map(([productId, amount]) => ({
      priceRef: String(productId),
      productId,
      quantity: 1,
      amount,
    })),
    currentPeriodStart: start,
    currentPeriodEnd: end,
    cancelAtPeriodEnd: false,
    canceledAt: null,
    endedAt: refunded ? dateOr(invoice.updated_at, now) : expired ? end : null,
    pausedAt: null,
    discountCode: note.d,
    // A one-time purchase is discounted once, on its only invoice.
    discountPeriodsLeft: note.d ? 0 : null,
    metadata: { userId: note.u, ...(note.k ? { kind: note.k } : {}), orderId: invoice.order_id },
    // The order's one invoice, the ref its invoice snapshot has: reconciliation can fetch it.
    latestInvoiceRef: invoice.uuid,
    updatedAt: now,
  };
}
