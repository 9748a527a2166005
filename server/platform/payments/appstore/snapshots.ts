import { Status, Type } from '@apple/app-store-server-library';
import { minorDigits } from '#shared/money.ts';
import type { SubscriptionStatus } from '#shared/subscription/actions.ts';
import type {
  GatewayInvoice,
  GatewayPayment,
  GatewayRefund,
  GatewaySubscription,
  InvoiceReason,
} from '../gateway.ts';
import type { AppStoreRenewalInfo, AppStoreTransaction } from './signed-data.ts';

// The App Store's subscriptions and transactions in our vocabulary. A subscription is named
// by its originalTransactionId; each transaction (the first purchase, each renewal, an
// upgrade) is one paid invoice with one payment, named by its transactionId; a refunded
// transaction adds a refund. Our customer is the appAccountToken the app bought with.

/** A subscription as the App Store Server API last told it: its status and newest data. */
export interface SubscriptionState {
  status: Status | number;
  /** The newest transaction of the subscription. */
  transaction: AppStoreTransaction;
  renewal: AppStoreRenewalInfo | null;
}

const dateOrNull = (millis: number | undefined) => (millis === undefined ? null : new Date(millis));

/** Our customer ref: the app account token, lower case as we made it (crypto.randomUUID). */
export function customerOf(data: { appAccountToken?: string }): string {
  return data.appAccountToken?.toLowerCase() ?? '';
}

export function isSubscription(transaction: AppStoreTransaction): boolean {
  return transaction.type === Type.AUTO_RENEWABLE_SUBSCRIPTION;
}

/** Apple's prices are in milliunits of the currency (12990 is 12.99): to its minor units. */
export function minorUnits(milliunits: number | undefined, currency: string): number {
  if (milliunits === undefined) return 0;
  return Math.round((milliunits * 10 ** minorDigits(currency)) / 1000);
}

function currencyOf(transaction: AppStoreTransaction, renewal: AppStoreRenewalInfo | null) {
  return (transaction.currency ?? renewal?.currency ?? 'USD').toUpperCase();
}

/**
 * §4 from the App Store's status: a running subscription with auto-renew off is canceled (at
 * period end); a failed renewal, in billing retry or in Apple's grace period, is on hold;
 * revoked (refunded, or taken back from Family Sharing) is refunded.
 */
export function ourStatus(state: SubscriptionState): SubscriptionStatus {
  switch (state.status) {
    case Status.ACTIVE:
      return state.renewal?.autoRenewStatus === 0 ? 'canceled' : 'active';
    case Status.BILLING_RETRY:
    case Status.BILLING_GRACE_PERIOD:
      return 'on_hold';
    case Status.REVOKED:
      return 'refunded';
    default:
      return state.transaction.revocationDate === undefined ? 'expired' : 'refunded';
  }
}

export function subscriptionSnapshot(state: SubscriptionState, readAt: Date): GatewaySubscription {
  const { transaction, renewal } = state;
  const status = ourStatus(state);
  const currency = currencyOf(transaction, renewal);
  const ended = status === 'expired' || status === 'refunded';
  return {
    ref: transaction.originalTransactionId ?? '',
    customerRef: customerOf(transaction),
    status,
    onetime: false,
    paymentMethodType: 'in_app',
    // Apple keeps the customer's payment method; we never see it.
    paymentMethodRef: null,
    currency,
    items: [
      {
        priceRef: transaction.productId ?? '',
        productId: null,
        quantity: 1,
        amount: minorUnits(transaction.price, currency),
      },
    ],
    currentPeriodStart: dateOrNull(transaction.purchaseDate),
    currentPeriodEnd: dateOrNull(transaction.expiresDate),
    cancelAtPeriodEnd: !ended && renewal?.autoRenewStatus === 0,
    // Apple does not say when auto-renew was turned off; a refund it dates.
    canceledAt: dateOrNull(transaction.revocationDate),
    endedAt: ended
      ? dateOrNull(transaction.revocationDate ?? transaction.expiresDate ?? readAt.getTime())
      : null,
    pausedAt: null,
    discountCode: null,
    discountPeriodsLeft: null,
    metadata: {},
    // The newest transaction is the newest paid invoice (transactionSnapshots' ref).
    latestInvoiceRef: transaction.transactionId ?? null,
    updatedAt: readAt,
  };
}

function reasonOf(transaction: AppStoreTransaction): InvoiceReason {
  if (transaction.transactionReason === 'RENEWAL') return 'subscription_cycle';
  return transaction.transactionId === transaction.originalTransactionId
    ? 'subscription_create'
    : 'subscription_update';
}

/** What Apple took back of a revoked transaction: all of it, or its prorated share. */
function refundedAmount(transaction: AppStoreTransaction, amount: number): number {
  if (transaction.revocationDate === undefined) return 0;
  const share = transaction.revocationPercentage;
  // revocationPercentage is in milliunits of a percent: 50000 is half.
  return share === undefined ? amount : Math.round((amount * share) / 100_000);
}

export interface TransactionSnapshots {
  invoice: GatewayInvoice;
  payment: GatewayPayment;
  refund?: GatewayRefund;
}

/** A transaction as the paid invoice, its payment, and its refund once revoked. */
export function transactionSnapshots(
  transaction: AppStoreTransaction,
  readAt: Date,
): TransactionSnapshots {
  const ref = transaction.transactionId ?? '';
  const currency = currencyOf(transaction, null);
  const amount = minorUnits(transaction.price, currency);
  const quantity = transaction.quantity ?? 1;
  const purchasedAt = dateOrNull(transaction.purchaseDate) ?? readAt;
  const periodEnd = dateOrNull(transaction.expiresDate);
  const refunded = refundedAmount(transaction, amount);
  const customerRef = customerOf(transaction);
  const invoice: GatewayInvoice = {
    ref,
    customerRef,
    subscriptionRef: transaction.originalTransactionId ?? null,
    status: 'paid',
    reason: reasonOf(transaction),
    currency,
    lines: [
      {
        description: transaction.productId ?? 'App Store purchase',
        priceRef: transaction.productId ?? null,
        productId: null,
        quantity,
        unitAmount: Math.round(amount / quantity),
        amount,
        periodStart: purchasedAt,
        periodEnd,
        proration: false,
      },
    ],
    subtotal: amount,
    discount: 0,
    // Apple's price includes the storefront's tax, which Apple collects and remits.
    tax: 0,
    total: amount,
    amountPaid: amount,
    amountRefunded: refunded,
    discountCode: null,
    periodStart: purchasedAt,
    periodEnd,
    attemptCount: 1,
    lastFailure: null,
    createdAt: purchasedAt,
    paidAt: purchasedAt,
    updatedAt: readAt,
  };
  const payment: GatewayPayment = {
    ref,
    invoiceRef: ref,
    customerRef,
    status: 'succeeded',
    amount,
    currency,
    paymentMethodRef: null,
    failureCode: null,
    failureMessage: null,
    createdAt: purchasedAt,
  };
  if (transaction.revocationDate === undefined) return { invoice, payment };
  const refund: GatewayRefund = {
    // Apple revokes a transaction once: the transaction names its refund.
    ref: `refund-${ref}`,
    paymentRef: ref,
    invoiceRef: ref,
    amount: refunded,
    currency,
    reason:
      transaction.revocationReason === 1 ? 'app_issue' : (transaction.revocationType ?? 'other'),
    createdAt: new Date(transaction.revocationDate),
  };
  return { invoice, payment, refund };
}
