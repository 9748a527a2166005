import type { SubscriptionStatus } from '#shared/subscription/actions.ts';
import type {
  GatewayCard,
  GatewayInvoice,
  GatewayPayment,
  GatewayRefund,
  GatewaySubscription,
} from '../gateway.ts';
import type {
  SandboxCard,
  SandboxInvoice,
  SandboxPayment,
  SandboxRefund,
  SandboxSubscription,
} from './sandbox-objects.ts';

// The sandbox's objects in our vocabulary: what its calls answer and what its webhooks
// carry, through the same functions, so the two can never disagree.

const date = (value: string) => new Date(value);
const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

/** §4 statuses from the processor's (sandbox-objects.ts). */
export function ourStatus(subscription: SandboxSubscription): SubscriptionStatus {
  switch (subscription.status) {
    case 'active':
      // Still running, but set to end: §4 calls that canceled.
      return subscription.cancelAtPeriodEnd ? 'canceled' : 'active';
    case 'paused':
      return 'paused';
    // Waiting for its first payment's confirmation: owed, not yet given.
    case 'incomplete':
    case 'past_due':
      return 'on_hold';
    case 'unpaid':
      return 'failed';
    case 'incomplete_expired':
      return 'expired';
    case 'ended':
      return subscription.refunded ? 'refunded' : 'expired';
  }
}

export function subscriptionSnapshot(subscription: SandboxSubscription): GatewaySubscription {
  return {
    ref: subscription.id,
    customerRef: subscription.customer,
    status: ourStatus(subscription),
    onetime: subscription.onetime,
    paymentMethodType: 'card',
    paymentMethodRef: subscription.card,
    currency: subscription.currency,
    items: subscription.items.map((item) => ({
      priceRef: item.price,
      productId: item.productId,
      quantity: item.quantity,
      amount: item.amount,
    })),
    currentPeriodStart: date(subscription.currentPeriodStart),
    currentPeriodEnd: dateOrNull(subscription.currentPeriodEnd),
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    canceledAt: dateOrNull(subscription.canceledAt),
    endedAt: dateOrNull(subscription.endedAt),
    pausedAt: dateOrNull(subscription.pausedAt),
    discountCode: subscription.discount?.code ?? null,
    discountPeriodsLeft: subscription.discount?.periodsLeft ?? null,
    metadata: { ...subscription.metadata },
    updatedAt: date(subscription.updatedAt),
  };
}

export function invoiceSnapshot(invoice: SandboxInvoice): GatewayInvoice {
  return {
    ref: invoice.id,
    customerRef: invoice.customer,
    subscriptionRef: invoice.subscription,
    status: invoice.status,
    reason: invoice.reason,
    currency: invoice.currency,
    lines: invoice.lines.map((line) => ({
      description: line.description,
      priceRef: line.price,
      productId: line.productId,
      quantity: line.quantity,
      unitAmount: line.unitAmount,
      amount: line.amount,
      periodStart: dateOrNull(line.periodStart),
      periodEnd: dateOrNull(line.periodEnd),
      proration: line.proration,
    })),
    subtotal: invoice.subtotal,
    discount: invoice.discount,
    tax: invoice.tax,
    total: invoice.total,
    amountPaid: invoice.amountPaid,
    amountRefunded: invoice.amountRefunded,
    discountCode: invoice.discountCode,
    periodStart: dateOrNull(invoice.periodStart),
    periodEnd: dateOrNull(invoice.periodEnd),
    attemptCount: invoice.attemptCount,
    lastFailure: invoice.lastFailure,
    createdAt: date(invoice.createdAt),
    paidAt: dateOrNull(invoice.paidAt),
    updatedAt: date(invoice.updatedAt),
  };
}

export function paymentSnapshot(payment: SandboxPayment): GatewayPayment {
  return {
    ref: payment.id,
    invoiceRef: payment.invoice,
    customerRef: payment.customer,
    status: payment.status,
    amount: payment.amount,
    currency: payment.currency,
    paymentMethodRef: payment.card,
    failureCode: payment.failureCode,
    failureMessage: payment.failureMessage,
    createdAt: date(payment.createdAt),
  };
}

export function refundSnapshot(refund: SandboxRefund): GatewayRefund {
  return {
    ref: refund.id,
    paymentRef: refund.payment,
    invoiceRef: refund.invoice,
    amount: refund.amount,
    currency: refund.currency,
    reason: refund.reason,
    createdAt: date(refund.createdAt),
  };
}

export function cardSnapshot(card: SandboxCard): GatewayCard {
  return {
    ref: card.id,
    customerRef: card.customer,
    brand: card.brand,
    last4: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
    isDefault: card.isDefault,
    updatedAt: date(card.updatedAt),
  };
}
