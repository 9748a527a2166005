import { randomBytes } from 'node:crypto';

// The stand-in's books: Stripe's objects in Stripe's JSON shapes (API 2026-10-28), held in
// memory by id, each naming the others by id as Stripe does; `expand[]` swaps an id for its
// object on the way out.

export type Interval = 'day' | 'week' | 'month' | 'year';
type Metadata = Record<string, string>;

export interface StripeList<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

export interface Customer {
  id: string;
  object: 'customer';
  created: number;
  email: string | null;
  name: string | null;
  metadata: Metadata;
  invoice_settings: { default_payment_method: string | null };
  livemode: false;
}

export interface Product {
  id: string;
  object: 'product';
  name: string;
  active: boolean;
  metadata: Metadata;
  created: number;
}

export interface Price {
  id: string;
  object: 'price';
  active: boolean;
  currency: string;
  unit_amount: number;
  product: string;
  type: 'recurring' | 'one_time';
  recurring: { interval: Interval; interval_count: number } | null;
  metadata: Metadata;
  created: number;
}

export interface Coupon {
  id: string;
  object: 'coupon';
  name: string | null;
  percent_off: number | null;
  amount_off: number | null;
  currency: string | null;
  duration: 'once' | 'repeating' | 'forever';
  duration_in_months: number | null;
  metadata: Metadata;
  valid: boolean;
  created: number;
}

export interface Discount {
  id: string;
  object: 'discount';
  source: { type: 'coupon'; coupon: string };
  customer: string;
  subscription: string | null;
  invoice: string | null;
  start: number;
  end: number | null;
}

export interface PaymentMethod {
  id: string;
  object: 'payment_method';
  type: 'card';
  customer: string | null;
  created: number;
  card: {
    brand: string;
    last4: string;
    exp_month: number;
    exp_year: number;
    funding: 'credit';
    country: 'US';
  };
  billing_details: { name: string | null; email: string | null };
  metadata: Metadata;
  /** The stand-in's own note of the full test number (never in Stripe's answers). */
  number?: string;
}

export interface SubscriptionItem {
  id: string;
  object: 'subscription_item';
  price: Price;
  quantity: number;
  subscription: string;
  current_period_start: number;
  current_period_end: number;
  metadata: Metadata;
  created: number;
}

export interface Subscription {
  id: string;
  object: 'subscription';
  customer: string;
  status:
    | 'incomplete'
    | 'incomplete_expired'
    | 'active'
    | 'past_due'
    | 'unpaid'
    | 'canceled'
    | 'paused';
  currency: string;
  items: StripeList<SubscriptionItem>;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  cancellation_details: { reason: string | null; comment: string | null; feedback: null } | null;
  ended_at: number | null;
  pause_collection: {
    behavior: 'void' | 'keep_as_draft' | 'mark_uncollectible';
    resumes_at: null;
  } | null;
  default_payment_method: string | null;
  discounts: string[];
  latest_invoice: string | null;
  pending_update: { expires_at: number; subscription_items: unknown[] } | null;
  billing_cycle_anchor: number;
  start_date: number;
  collection_method: 'charge_automatically';
  metadata: Metadata;
  created: number;
  livemode: false;
}

export interface InvoiceLine {
  id: string;
  object: 'line_item';
  amount: number;
  currency: string;
  description: string;
  quantity: number;
  period: { start: number; end: number };
  pricing: { type: 'price_details'; price_details: { price: string; product: string } };
  parent: {
    type: 'subscription_item_details';
    subscription_item_details: {
      subscription: string | null;
      subscription_item: string;
      proration: boolean;
      invoice_item: null;
      proration_details: null;
    };
  } | null;
  subscription: string | null;
  metadata: Metadata;
}

export interface InvoicePayment {
  id: string;
  object: 'invoice_payment';
  invoice: string;
  amount_paid: number | null;
  amount_requested: number;
  currency: string;
  is_default: boolean;
  status: 'open' | 'paid' | 'canceled';
  payment: { type: 'payment_intent'; payment_intent: string };
  status_transitions: { paid_at: number | null; canceled_at: number | null };
  created: number;
}

export interface Invoice {
  id: string;
  object: 'invoice';
  customer: string;
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
  billing_reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update' | 'manual';
  currency: string;
  lines: StripeList<InvoiceLine>;
  subtotal: number;
  total: number;
  total_discount_amounts: { amount: number; discount: string }[];
  total_taxes: [];
  discounts: string[];
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  attempt_count: number;
  attempted: boolean;
  period_start: number;
  period_end: number;
  parent: {
    type: 'subscription_details';
    subscription_details: { subscription: string; metadata: Metadata };
    quote_details: null;
  } | null;
  payments: StripeList<InvoicePayment>;
  hosted_invoice_url: string;
  status_transitions: {
    finalized_at: number | null;
    paid_at: number | null;
    voided_at: number | null;
    marked_uncollectible_at: number | null;
  };
  metadata: Metadata;
  created: number;
  livemode: false;
}

export interface PaymentError {
  type: 'card_error';
  code: string;
  decline_code?: string;
  message: string;
  payment_method?: PaymentMethod;
}

export interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  customer: string;
  payment_method: string | null;
  status: 'requires_payment_method' | 'requires_action' | 'processing' | 'succeeded' | 'canceled';
  latest_charge: string | null;
  last_payment_error: PaymentError | null;
  metadata: Metadata;
  created: number;
}

export interface Charge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  currency: string;
  customer: string;
  payment_intent: string;
  payment_method: string;
  paid: boolean;
  refunded: boolean;
  status: 'succeeded' | 'failed';
  failure_code: string | null;
  failure_message: string | null;
  outcome: { type: string; reason: string | null; seller_message: string };
  created: number;
}

export interface Refund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string;
  reason: string | null;
  status: 'succeeded';
  metadata: Metadata;
  created: number;
}

export interface SetupIntent {
  id: string;
  object: 'setup_intent';
  customer: string;
  payment_method: string | null;
  status: 'succeeded' | 'requires_payment_method';
  usage: 'off_session';
  created: number;
}

export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  mode: 'subscription' | 'payment' | 'setup';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  customer: string | null;
  client_reference_id: string | null;
  currency: string | null;
  amount_total: number | null;
  url: string | null;
  success_url: string;
  cancel_url: string | null;
  payment_method_types: string[];
  allowed_payment_method_types: string[];
  subscription: string | null;
  invoice: string | null;
  payment_intent: string | null;
  setup_intent: string | null;
  metadata: Metadata;
  expires_at: number;
  created: number;
  livemode: false;
  /** What it sells: in `line_items` on Stripe (a list read on its own); kept here. */
  line_items: { price: string; quantity: number }[];
  /** The coupons it applies (`discounts[][coupon]`). */
  coupons: string[];
  subscription_metadata: Metadata;
  invoice_creation: boolean;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: unknown; previous_attributes?: unknown };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export type StripeObject =
  | Customer
  | Product
  | Price
  | Coupon
  | Discount
  | PaymentMethod
  | Subscription
  | Invoice
  | PaymentIntent
  | Charge
  | Refund
  | SetupIntent
  | CheckoutSession
  | InvoicePayment;

type ObjectName = StripeObject['object'];
type ObjectOf<N extends ObjectName> = Extract<StripeObject, { object: N }>;

/** Fields of ours never shown in an answer. */
const PRIVATE_FIELDS: Record<string, readonly string[]> = {
  payment_method: ['number'],
  'checkout.session': ['line_items', 'coupons', 'subscription_metadata', 'invoice_creation'],
};

export class StandinObjects {
  readonly #objects = new Map<string, StripeObject>();
  /** Seconds added to the wall clock (renewals "later" in tests without waiting). */
  offsetSeconds = 0;

  now(): number {
    return Math.floor(Date.now() / 1000) + this.offsetSeconds;
  }

  newId(prefix: string): string {
    return `${prefix}_test_${randomBytes(12).toString('base64url')}`;
  }

  put<T extends StripeObject>(object: T): T {
    this.#objects.set(object.id, object);
    return object;
  }

  get<N extends ObjectName>(name: N, id: string | null | undefined): ObjectOf<N> | undefined {
    if (!id) return undefined;
    const found = this.#objects.get(id);
    return found?.object === name ? (found as ObjectOf<N>) : undefined;
  }

  all<N extends ObjectName>(name: N): ObjectOf<N>[] {
    return [...this.#objects.values()].filter(
      (object): object is ObjectOf<N> => object.object === name,
    );
  }

  /** The object as Stripe answers it: a copy, private fields left out, `expand` applied. */
  present(object: StripeObject, expand: readonly string[] = []): Record<string, unknown> {
    const copy = this.#plain(object);
    for (const path of expand) this.#expand(copy, path.split('.'));
    return copy;
  }

  #plain(object: StripeObject): Record<string, unknown> {
    const copy = structuredClone(object) as unknown as Record<string, unknown>;
    for (const field of PRIVATE_FIELDS[object.object] ?? []) delete copy[field];
    return copy;
  }

  #expand(node: unknown, path: string[]): unknown {
    const [head, ...rest] = path;
    if (head === undefined) return node;
    if (Array.isArray(node)) return node.map((entry) => this.#expand(entry, path));
    if (typeof node !== 'object' || node === null) return node;
    const record = node as Record<string, unknown>;
    let value = record[head];
    if (Array.isArray(value)) {
      value = value.map((entry) => this.#expandOne(entry, rest));
    } else {
      value = this.#expandOne(value, rest);
    }
    record[head] = value;
    return record;
  }

  #expandOne(value: unknown, rest: string[]): unknown {
    if (typeof value === 'string') {
      const found = this.#objects.get(value);
      if (!found) return value;
      return this.#expand(this.#plain(found), rest);
    }
    return this.#expand(value, rest);
  }
}

export function list<T>(data: T[], url: string, hasMore = false): StripeList<T> {
  return { object: 'list', data, has_more: hasMore, url };
}
