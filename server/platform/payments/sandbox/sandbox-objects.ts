import type {
  BillingInterval,
  InvoiceStatus,
  PaymentStatus,
} from '#shared/billing/billing-values.ts';
import type { InvoiceReason } from '../gateway.ts';

// The sandbox's own objects, one JSON document each in `sandbox_objects`, shaped like a card
// processor's API objects (Stripe's, loosely). Times are ISO strings of the billing clock;
// `updatedAt` grows with every change of an object, so webhook snapshots of it order.

/** The kinds of object the sandbox keeps, and the prefix of their ids. */
export const OBJECT_PREFIXES = {
  customer: 'cus',
  card: 'card',
  token: 'tok',
  price: 'price',
  subscription: 'sub',
  invoice: 'in',
  payment: 'pay',
  refund: 're',
  event: 'evt',
  idempotency: 'idem',
} as const;
export type ObjectKind = keyof typeof OBJECT_PREFIXES;

interface BaseObject<K extends ObjectKind> {
  id: string;
  object: K;
  createdAt: string;
  updatedAt: string;
}

export interface SandboxCustomer extends BaseObject<'customer'> {
  userId: number;
  email: string;
  name: string;
  defaultCard: string | null;
}

/**
 * How a test card behaves (the number itself is never kept, as a processor keeps no number
 * it hands a token for): see test-cards.ts.
 */
export type CardBehaviour =
  | 'succeeds'
  | 'declined'
  | 'insufficient_funds'
  | 'requires_authentication'
  | 'charges_fail';

export interface CardDetails {
  brand: string;
  last4: string;
  expMonth: number;
  /** With its century. */
  expYear: number;
  behaviour: CardBehaviour;
}

export interface SandboxCard extends BaseObject<'card'>, CardDetails {
  customer: string;
  isDefault: boolean;
  /** Removed by the customer, or dropped after the purchase it came with failed. */
  detached: boolean;
}

export interface SandboxToken extends BaseObject<'token'> {
  card: CardDetails;
  name: string;
  usedAt: string | null;
  expiresAt: string;
}

export interface SandboxPrice extends BaseObject<'price'> {
  productId: number;
  name: string;
  amount: number;
  currency: string;
  interval: BillingInterval | null;
  intervalCount: number;
  onetime: boolean;
}

export interface SubscriptionItem {
  price: string;
  /** Our product, from the price's metadata. */
  productId: number;
  name: string;
  amount: number;
  quantity: number;
}

export interface DiscountTerms {
  percentOff: number | null;
  amountOff: number | null;
}

export interface SandboxDiscount extends DiscountTerms {
  code: string;
  /** Invoices it still discounts; null: every one. */
  periodsLeft: number | null;
}

/**
 * A processor's statuses, not ours: `incomplete` until the first payment succeeds (then
 * `active`, or `incomplete_expired` when it fails), `past_due` while a renewal is unpaid,
 * `unpaid` once given up on, `ended` when over (Stripe calls it canceled, a word §4 uses
 * for "ends at period end"). snapshots.ts maps them to §4.
 */
export type SandboxSubscriptionStatus =
  | 'incomplete'
  | 'incomplete_expired'
  | 'active'
  | 'past_due'
  | 'paused'
  | 'unpaid'
  | 'ended';

export interface SandboxSubscription extends BaseObject<'subscription'> {
  customer: string;
  status: SandboxSubscriptionStatus;
  onetime: boolean;
  /** The card renewals are charged to: the customer's default, followed as it changes. */
  card: string | null;
  /**
   * The card came with the purchase (a token): it becomes the default once the first
   * invoice is paid, and is dropped again if that payment fails.
   */
  cardFromToken: boolean;
  currency: string;
  /** The plan first, then addons. */
  items: SubscriptionItem[];
  interval: BillingInterval | null;
  intervalCount: number;
  /** Periods count from here, so monthly ones keep their day (31st → 28th → 31st). */
  cycleAnchor: string;
  currentPeriodStart: string;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: string | null;
  endedAt: string | null;
  endReason: 'canceled' | 'period_end' | 'non_payment' | 'payment_failed' | null;
  pausedAt: string | null;
  discount: SandboxDiscount | null;
  /** The discount the current period's invoice had, which a plan change prorates with. */
  periodDiscount: DiscountTerms | null;
  /** Ended at once and its latest paid invoice refunded in full (§4 refunded). */
  refunded: boolean;
  latestInvoice: string | null;
  latestPaidInvoice: string | null;
  returnUrl: string;
  metadata: Record<string, string>;
}

/** A new billing cycle from `start` (its anchor) to `end`, as a change of period brings. */
export interface PendingPeriod {
  interval: BillingInterval;
  intervalCount: number;
  start: string;
  end: string;
}

export interface SandboxInvoiceLine {
  description: string;
  price: string | null;
  productId: number | null;
  quantity: number;
  unitAmount: number;
  amount: number;
  periodStart: string | null;
  periodEnd: string | null;
  proration: boolean;
}

export interface SandboxInvoice extends BaseObject<'invoice'> {
  customer: string;
  subscription: string | null;
  status: InvoiceStatus;
  reason: InvoiceReason;
  currency: string;
  lines: SandboxInvoiceLine[];
  subtotal: number;
  discount: number;
  tax: number;
  total: number;
  amountPaid: number;
  amountRefunded: number;
  discountCode: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  attemptCount: number;
  lastFailure: string | null;
  paidAt: string | null;
  latestPayment: string | null;
  /**
   * Not yet told to us by webhook: a first invoice or a plan change's invoice is announced
   * only once paid, so a declined purchase leaves nothing in our books.
   */
  quiet: boolean;
  /** A plan change waiting for this invoice's payment (3-D Secure). */
  pendingItems: SubscriptionItem[] | null;
  /** The billing cycle that change restarts, when it is to another period. */
  pendingPeriod?: PendingPeriod | null;
}

export interface SandboxPayment extends BaseObject<'payment'> {
  invoice: string;
  customer: string;
  status: PaymentStatus;
  amount: number;
  amountRefunded: number;
  currency: string;
  card: string | null;
  offSession: boolean;
  failureCode: string | null;
  failureMessage: string | null;
  /** Where the confirmation page sends the customer back (requires_action). */
  returnUrl: string | null;
}

export interface SandboxRefund extends BaseObject<'refund'> {
  payment: string;
  invoice: string;
  amount: number;
  currency: string;
  reason: string | null;
}

/** The objects an event concerns, each as it stood when the event was made. */
export interface EventObjects {
  subscription?: SandboxSubscription;
  invoice?: SandboxInvoice;
  payment?: SandboxPayment;
  refund?: SandboxRefund;
  card?: SandboxCard;
  deletedCard?: string;
}

export interface SandboxEvent extends BaseObject<'event'> {
  type: string;
  data: EventObjects;
  /** Handed to the delivery queue (a crash between commit and send leaves it false). */
  queued: boolean;
  deliveredAt: string | null;
}

export interface SandboxIdempotency extends BaseObject<'idempotency'> {
  operation: string;
  outcome: unknown;
}

export type SandboxObject =
  | SandboxCustomer
  | SandboxCard
  | SandboxToken
  | SandboxPrice
  | SandboxSubscription
  | SandboxInvoice
  | SandboxPayment
  | SandboxRefund
  | SandboxEvent
  | SandboxIdempotency;

export type ObjectOf<K extends ObjectKind> = Extract<SandboxObject, { object: K }>;
