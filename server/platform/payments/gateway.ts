import type { FastifyBaseLogger } from 'fastify';
import type {
  BillingInterval,
  GatewayName,
  InvoiceStatus,
  PaymentMethodType,
  PaymentStatus,
} from '#shared/billing/billing-values.ts';
import type { ServiceId, SubscriptionStatus } from '#shared/subscription/actions.ts';

// The one interface every payment provider sits behind (the sandbox now; Stripe, PayPal,
// the App Store, Cryptomus and the bonus gateway next). The provider holds the truth about
// its subscriptions, invoices and payments: calls here ask it to act and answer what it
// says at once, and every change it makes — ours or its own, such as a renewal — also
// reaches us as a signed webhook, normalized by `verifyWebhook` into snapshots that the
// billing module applies once each, the newer over the older (`updatedAt`), so events
// arriving late or twice converge to the provider's state.

/** What a provider knows of our customer. */
export interface GatewayCustomerInput {
  userId: number;
  email: string;
  name: string;
}

/** A price at the provider: our product as it was created there (products.gateway_ref). */
export interface GatewayPrice {
  /** Our product id, sent along so snapshots can name it back. */
  productId: number;
  /** The provider's id of the price or plan, when it has one already. */
  ref: string | null;
  name: string;
  amount: number;
  currency: string;
  interval: BillingInterval | null;
  intervalCount: number;
  onetime: boolean;
}

export interface GatewayDiscount {
  /** Our coupon code, for the provider's records. */
  code: string;
  percentOff: number | null;
  amountOff: number | null;
  /** Invoices it discounts from the first; null for every one. */
  periods: number | null;
}

export interface StartSubscriptionInput {
  customerRef: string;
  /** The plan first, then any addons. */
  items: GatewayPrice[];
  discount: GatewayDiscount | null;
  /** A card token from the card form, or a saved card's ref (card gateways). */
  paymentToken: string | null;
  paymentMethodRef: string | null;
  /** Where the provider's own page (3-D Secure, approval) sends the customer back. */
  returnUrl: string;
  /** Where it sends them when they give up. */
  cancelUrl: string;
  /** Our idempotency key: the same key twice makes one subscription and one charge. */
  idempotencyKey: string;
  /** Recorded on the provider's objects, so a snapshot can be traced to our user. */
  metadata: Record<string, string>;
}

/** A refusal the customer can act on, shown under the card field. */
export interface GatewayDecline {
  /** `card_declined`, `insufficient_funds`, `expired_card`, `authentication_failed` … */
  code: string;
  /** The provider's words, for logs and staff. */
  message: string;
}

export type StartSubscriptionOutcome =
  | { kind: 'completed'; subscription: GatewaySubscription; invoice: GatewayInvoice }
  /** The customer must visit the provider's page (3-D Secure, approval) first. */
  | { kind: 'redirect'; url: string; subscription: GatewaySubscription | null }
  | { kind: 'declined'; decline: GatewayDecline };

export type PayOutcome =
  | { kind: 'paid'; invoice: GatewayInvoice }
  | { kind: 'redirect'; url: string }
  | { kind: 'declined'; decline: GatewayDecline; invoice: GatewayInvoice };

export interface ChangePlanInput {
  subscriptionRef: string;
  items: GatewayPrice[];
  idempotencyKey: string;
}

export interface ProrationPreview {
  currency: string;
  credit: number;
  charge: number;
  due: number;
  nextAmount: number;
  /** When the period runs to after the change: a change of period restarts it now. */
  periodEnd: Date | null;
}

export type ChangePlanOutcome =
  | { kind: 'completed'; subscription: GatewaySubscription; invoice: GatewayInvoice | null }
  | { kind: 'redirect'; url: string; subscription: GatewaySubscription }
  | { kind: 'declined'; decline: GatewayDecline };

// ---------------------------------------------------------------------------------------
// Snapshots: a provider's objects in our vocabulary, each as it stood at `updatedAt`.

export interface GatewaySubscription {
  ref: string;
  customerRef: string;
  /** Already in §4 terms: the adapter maps its provider's statuses. */
  status: SubscriptionStatus;
  onetime: boolean;
  paymentMethodType: PaymentMethodType;
  paymentMethodRef: string | null;
  currency: string;
  /** The plan first, then addons; `productId` from the price's metadata when known. */
  items: GatewaySubscriptionItem[];
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  endedAt: Date | null;
  pausedAt: Date | null;
  /** The coupon code still discounting, and how many more invoices (null: all). */
  discountCode: string | null;
  discountPeriodsLeft: number | null;
  metadata: Record<string, string>;
  /**
   * The provider's latest invoice of it, when known: reconciliation reads it too, since a
   * subscription whose paying invoice we never got grants nothing.
   */
  latestInvoiceRef?: string | null;
  updatedAt: Date;
}

export interface GatewaySubscriptionItem {
  priceRef: string;
  productId: number | null;
  quantity: number;
  amount: number;
}

export type InvoiceReason = 'subscription_create' | 'subscription_cycle' | 'subscription_update';

export interface GatewayInvoice {
  ref: string;
  customerRef: string;
  subscriptionRef: string | null;
  status: InvoiceStatus;
  reason: InvoiceReason;
  currency: string;
  lines: GatewayInvoiceLine[];
  subtotal: number;
  discount: number;
  tax: number;
  total: number;
  amountPaid: number;
  amountRefunded: number;
  discountCode: string | null;
  periodStart: Date | null;
  periodEnd: Date | null;
  attemptCount: number;
  lastFailure: string | null;
  createdAt: Date;
  paidAt: Date | null;
  updatedAt: Date;
}

export interface GatewayInvoiceLine {
  description: string;
  priceRef: string | null;
  productId: number | null;
  quantity: number;
  unitAmount: number;
  amount: number;
  periodStart: Date | null;
  periodEnd: Date | null;
  proration: boolean;
}

export interface GatewayPayment {
  ref: string;
  invoiceRef: string;
  customerRef: string;
  status: PaymentStatus;
  amount: number;
  currency: string;
  paymentMethodRef: string | null;
  failureCode: string | null;
  failureMessage: string | null;
  createdAt: Date;
}

export interface GatewayRefund {
  ref: string;
  paymentRef: string;
  invoiceRef: string;
  amount: number;
  currency: string;
  reason: string | null;
  createdAt: Date;
}

export interface GatewayCard {
  ref: string;
  customerRef: string;
  brand: string;
  last4: string;
  expMonth: number;
  /** With its century. */
  expYear: number;
  isDefault: boolean;
  updatedAt: Date;
}

/**
 * One webhook event, normalized: the objects it concerns as snapshots. `deletedCardRef`
 * names a card the customer removed at the provider.
 */
export interface GatewayEvent {
  /** The provider's event id: each is applied once. */
  ref: string;
  /** The provider's own type name, stored for staff. */
  type: string;
  occurredAt: Date;
  subscription?: GatewaySubscription;
  invoice?: GatewayInvoice;
  payment?: GatewayPayment;
  refund?: GatewayRefund;
  card?: GatewayCard;
  deletedCardRef?: string;
  /** The raw event, stored as received. */
  payload: unknown;
}

/** A webhook whose signature is missing, wrong, or too old: answered 400, nothing applied. */
export class WebhookRejected extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'WebhookRejected';
  }
}

/**
 * A provider refused the request itself (an unknown or used token, an id it does not know,
 * an action the object's state does not allow): the caller's mistake, not an outage, so
 * retrying the same call will not help.
 */
export class GatewayRequestError extends Error {
  constructor(
    readonly kind: 'not_found' | 'invalid_state' | 'invalid_request',
    message: string,
  ) {
    super(message);
    this.name = 'GatewayRequestError';
  }
}

/** A provider that could not be reached or failed: the caller may retry later. */
export class GatewayUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GatewayUnavailable';
  }
}

/** How the order page collects a payment for this gateway. */
export interface CheckoutStyle {
  /**
   * `none`: never sold on the order page: bought in the mobile app (the App Store) or
   * granted (bonus days).
   */
  checkout: 'card_form' | 'redirect' | 'none';
  /** The card form's tokenizer URL (card_form). */
  tokenizeUrl: string | null;
  googlePay: boolean;
  applePay: boolean;
  cryptoProcessing: boolean;
}

/** A gateway never sold on the order page: bought in the app, or granted. */
export const NOT_ON_ORDER_PAGE: CheckoutStyle = {
  checkout: 'none',
  tokenizeUrl: null,
  googlePay: false,
  applePay: false,
  cryptoProcessing: false,
};

/** Saved cards, for gateways that keep them (card processors). */
export interface CardVault {
  /**
   * Saves a card from a card-form token; a decline when the provider refuses it. Made the
   * default, it is what renewals are charged to from now on, as with `setDefault`.
   */
  add(
    customerRef: string,
    token: string,
    options: { makeDefault: boolean },
  ): Promise<{ kind: 'added'; card: GatewayCard } | { kind: 'declined'; decline: GatewayDecline }>;
  update(cardRef: string, expiry: { expMonth: number; expYear: number }): Promise<GatewayCard>;
  remove(cardRef: string): Promise<void>;
  /** What this customer's renewals, running subscriptions' too, are charged to from now on. */
  setDefault(customerRef: string, cardRef: string): Promise<GatewayCard[]>;
  list(customerRef: string): Promise<GatewayCard[]>;
}

export interface PaymentGateway {
  readonly name: GatewayName;
  /** The §9 service it sells (GATEWAYS in shared/billing/billing-values.ts). */
  readonly serviceId: ServiceId;
  readonly paymentMethodType: PaymentMethodType;
  readonly checkoutStyle: CheckoutStyle;
  /** Present for gateways that keep cards. */
  readonly cards: CardVault | null;
  /** False for a provider that cannot discount a subscription (PayPal): coupons are refused. */
  readonly takesCoupons?: boolean;
  /**
   * A card processor whose card form is its own hosted page (Stripe without Stripe.js):
   * answers the URL where the customer adds a card; it reaches us by webhook once saved.
   */
  startCardSetup?(input: {
    customerRef: string;
    returnUrl: string;
    cancelUrl: string;
    idempotencyKey: string;
  }): Promise<string>;

  /** The provider's customer for this user, made on first use (idempotent by userId). */
  ensureCustomer(customer: GatewayCustomerInput): Promise<string>;
  /** The provider's price for a product, made on first use; answers its ref. */
  ensurePrice(price: GatewayPrice): Promise<string>;

  startSubscription(input: StartSubscriptionInput): Promise<StartSubscriptionOutcome>;
  previewChange(input: ChangePlanInput): Promise<ProrationPreview>;
  changePlan(input: ChangePlanInput): Promise<ChangePlanOutcome>;
  cancel(subscriptionRef: string, options: { atPeriodEnd: boolean }): Promise<GatewaySubscription>;
  /** Undoes a cancel at period end. */
  resume(subscriptionRef: string): Promise<GatewaySubscription>;
  pause(subscriptionRef: string): Promise<GatewaySubscription>;
  unpause(subscriptionRef: string): Promise<GatewaySubscription>;
  /** Tries to collect an open invoice now, from `paymentMethodRef` or the default card. */
  payInvoice(
    invoiceRef: string,
    options: { paymentMethodRef?: string | null; idempotencyKey: string },
  ): Promise<PayOutcome>;
  /**
   * Gives up on an unpaid subscription after the last retry: it ends as failed and its
   * open invoice is marked uncollectible.
   */
  endForNonPayment(subscriptionRef: string): Promise<GatewaySubscription>;
  /** Refunds a payment in full, or `amount` of it. */
  refund(paymentRef: string, options: { amount?: number; reason?: string }): Promise<GatewayRefund>;

  fetchSubscription(subscriptionRef: string): Promise<GatewaySubscription | null>;
  fetchInvoice(invoiceRef: string): Promise<GatewayInvoice | null>;

  /**
   * Checks a webhook's signature over the raw body and answers its events; throws
   * WebhookRejected when the signature is missing, wrong or stale. Asynchronous: a provider
   * may need a certificate fetched, or the event's object read back before it is believed.
   */
  verifyWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<GatewayEvent[]>;

  /**
   * Subscriptions the provider holds that changed since `since`, for the daily
   * reconciliation; absent on gateways without a listing API (those are read one by one).
   */
  listSubscriptions?(since: Date): AsyncIterable<GatewaySubscription>;
}

/** What a real gateway's adapter is built with, beside its own settings. */
export interface GatewayDeps {
  log: FastifyBaseLogger;
  /** Our public base URL: where providers send customers back and post webhooks. */
  appUrl: string;
  /** Billing time (the wall clock but for the sandbox's test clock): when periods end. */
  now?: () => Date;
}

/** Where a gateway's webhooks are received (webhook-route.ts). */
export function webhookUrl(appUrl: string, gateway: GatewayName): string {
  return `${appUrl}/api/public/v1/webhooks/${gateway}`;
}
