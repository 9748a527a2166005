import { randomBytes } from 'node:crypto';
import { addIntervals } from '../../platform/payments/sandbox/periods.ts';

// The stand-in's memory: PayPal's objects in PayPal's own JSON shapes (snake_case, money as
// decimal strings), and the changes PayPal makes to them, each with the webhook it sends.

export interface Money {
  currency_code: string;
  value: string;
}

export interface Plan {
  id: string;
  product_id: string;
  name: string;
  status: string;
  billing_cycles: {
    frequency: { interval_unit: string; interval_count: number };
    tenure_type: string;
    sequence: number;
    total_cycles: number;
    pricing_scheme: { version: number; fixed_price: Money };
  }[];
  payment_preferences: Record<string, unknown>;
  create_time: string;
  update_time: string;
}

export interface Subscription {
  id: string;
  plan_id: string;
  custom_id?: string;
  status: 'APPROVAL_PENDING' | 'APPROVED' | 'ACTIVE' | 'SUSPENDED' | 'CANCELLED' | 'EXPIRED';
  status_update_time: string;
  status_change_note?: string;
  start_time: string;
  quantity: string;
  plan_overridden: boolean;
  subscriber?: {
    email_address: string;
    payer_id: string;
    name: { given_name: string; surname: string };
  };
  billing_info?: {
    outstanding_balance: Money;
    cycle_executions: Record<string, unknown>[];
    last_payment?: { amount: Money; time: string };
    next_billing_time?: string;
    failed_payments_count: number;
    last_failed_payment?: Record<string, unknown>;
  };
  create_time: string;
  update_time: string;
  /** Not PayPal's: what the approval needs. */
  internal: {
    baToken: string;
    returnUrl: string;
    cancelUrl: string;
    price: Money;
  };
}

export interface Capture {
  id: string;
  subscription_id: string;
  status: 'COMPLETED' | 'PARTIALLY_REFUNDED' | 'REFUNDED';
  amount: Money;
  refunded: number;
  create_time: string;
  update_time: string;
}

export interface Refund {
  id: string;
  capture_id: string;
  amount: Money;
  status: 'COMPLETED';
  note_to_payer?: string;
  total_refunded: Money;
  create_time: string;
  update_time: string;
}

export interface Outgoing {
  event_type: string;
  resource_type: string;
  resource: unknown;
  summary: string;
}

const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
export function paypalId(prefix: string, length: number): string {
  const bytes = randomBytes(length);
  return prefix + Array.from(bytes, (byte) => ALNUM[byte % ALNUM.length]).join('');
}

const cents = (money: Money) => Math.round(Number(money.value) * 100);
const money = (amount: number, currency: string): Money => ({
  currency_code: currency,
  value: (amount / 100).toFixed(2),
});

const UNITS = { DAY: 'day', WEEK: 'week', MONTH: 'month', YEAR: 'year' } as const;

/** How many failed payments make PayPal suspend a subscription (the plan's threshold). */
const FAILURE_THRESHOLD = 3;

export class Books {
  readonly products = new Map<string, Record<string, unknown>>();
  readonly plans = new Map<string, Plan>();
  readonly subscriptions = new Map<string, Subscription>();
  readonly captures = new Map<string, Capture>();
  readonly refunds = new Map<string, Refund>();
  /** What a PayPal-Request-Id was answered, per endpoint. */
  readonly answered = new Map<string, { status: number; body: unknown }>();

  constructor(readonly now: () => Date = () => new Date()) {}

  private stamp() {
    return this.now().toISOString();
  }

  private touch(subscription: Subscription, status?: Subscription['status'], note?: string) {
    const at = this.stamp();
    subscription.update_time = at;
    if (status) {
      subscription.status = status;
      subscription.status_update_time = at;
      if (note !== undefined) subscription.status_change_note = note;
    }
  }

  nextBilling(subscription: Subscription, from: Date): string {
    const plan = this.plans.get(subscription.plan_id);
    const frequency = plan?.billing_cycles[0]?.frequency;
    const unit = UNITS[(frequency?.interval_unit ?? 'MONTH') as keyof typeof UNITS];
    return addIntervals(from, unit, frequency?.interval_count ?? 1).toISOString();
  }

  /** PayPal takes one cycle's payment: a capture (sale) and the subscription's books. */
  private takePayment(subscription: Subscription, amount: Money): Capture {
    const at = this.stamp();
    const capture: Capture = {
      id: paypalId('', 17),
      subscription_id: subscription.id,
      status: 'COMPLETED',
      amount,
      refunded: 0,
      create_time: at,
      update_time: at,
    };
    this.captures.set(capture.id, capture);
    const info = subscription.billing_info;
    if (info) {
      info.last_payment = { amount, time: at };
      info.next_billing_time = this.nextBilling(subscription, new Date(at));
      const cycle = info.cycle_executions[0];
      if (cycle) cycle.cycles_completed = Number(cycle.cycles_completed) + 1;
    }
    this.touch(subscription);
    return capture;
  }

  approve(subscription: Subscription): Outgoing[] {
    subscription.subscriber = {
      email_address: 'buyer@example.com',
      payer_id: paypalId('', 13),
      name: { given_name: 'Test', surname: 'Buyer' },
    };
    const currency = subscription.internal.price.currency_code;
    subscription.billing_info = {
      outstanding_balance: money(0, currency),
      cycle_executions: [
        {
          tenure_type: 'REGULAR',
          sequence: 1,
          cycles_completed: 0,
          cycles_remaining: 0,
          current_pricing_scheme_version: 1,
          total_cycles: 0,
        },
      ],
      failed_payments_count: 0,
    };
    this.touch(subscription, 'ACTIVE');
    subscription.start_time = subscription.status_update_time;
    const capture = this.takePayment(subscription, subscription.internal.price);
    return [
      subscriptionEvent('BILLING.SUBSCRIPTION.ACTIVATED', subscription),
      saleEvent('PAYMENT.SALE.COMPLETED', capture),
    ];
  }

  /** The next cycle's payment, taken or failed (a test's control). */
  renew(subscription: Subscription, outcome: 'paid' | 'failed'): Outgoing[] {
    const info = subscription.billing_info;
    if (subscription.status !== 'ACTIVE' || !info) throw new Error('only an active one renews');
    const price = subscription.internal.price;
    if (outcome === 'paid') {
      info.failed_payments_count = 0;
      info.outstanding_balance = money(0, price.currency_code);
      delete info.last_failed_payment;
      return [saleEvent('PAYMENT.SALE.COMPLETED', this.takePayment(subscription, price))];
    }
    const at = this.stamp();
    info.failed_payments_count += 1;
    info.outstanding_balance = money(
      cents(info.outstanding_balance) + cents(price),
      price.currency_code,
    );
    info.last_failed_payment = {
      amount: price,
      time: at,
      reason_code: 'PAYMENT_DENIED',
      next_payment_retry_time: new Date(Date.parse(at) + 5 * 86_400_000).toISOString(),
    };
    this.touch(subscription);
    const events = [subscriptionEvent('BILLING.SUBSCRIPTION.PAYMENT.FAILED', subscription)];
    if (info.failed_payments_count >= FAILURE_THRESHOLD) {
      this.touch(subscription, 'SUSPENDED', 'Suspended: too many failed payments');
      events.push(subscriptionEvent('BILLING.SUBSCRIPTION.SUSPENDED', subscription));
    }
    return events;
  }

  suspend(subscription: Subscription, reason: string): Outgoing[] {
    this.touch(subscription, 'SUSPENDED', reason);
    return [subscriptionEvent('BILLING.SUBSCRIPTION.SUSPENDED', subscription)];
  }

  activate(subscription: Subscription, reason: string): Outgoing[] {
    this.touch(subscription, 'ACTIVE', reason);
    return [subscriptionEvent('BILLING.SUBSCRIPTION.RE-ACTIVATED', subscription)];
  }

  cancel(subscription: Subscription, reason: string): Outgoing[] {
    this.touch(subscription, 'CANCELLED', reason);
    if (subscription.billing_info) delete subscription.billing_info.next_billing_time;
    return [subscriptionEvent('BILLING.SUBSCRIPTION.CANCELLED', subscription)];
  }

  /** Collects the outstanding balance now (POST …/capture). */
  captureOutstanding(subscription: Subscription): { capture: Capture; events: Outgoing[] } {
    const info = subscription.billing_info;
    if (!info) throw new Error('not approved');
    const capture = this.takePayment(subscription, info.outstanding_balance);
    info.outstanding_balance = money(0, capture.amount.currency_code);
    info.failed_payments_count = 0;
    return { capture, events: [saleEvent('PAYMENT.SALE.COMPLETED', capture)] };
  }

  refund(capture: Capture, amount: number, note?: string): { refund: Refund; events: Outgoing[] } {
    const at = this.stamp();
    const currency = capture.amount.currency_code;
    capture.refunded += amount;
    capture.status = capture.refunded >= cents(capture.amount) ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    capture.update_time = at;
    const refund: Refund = {
      id: paypalId('', 17),
      capture_id: capture.id,
      amount: money(amount, currency),
      status: 'COMPLETED',
      ...(note ? { note_to_payer: note } : {}),
      total_refunded: money(capture.refunded, currency),
      create_time: at,
      update_time: at,
    };
    this.refunds.set(refund.id, refund);
    return {
      refund,
      events: [
        {
          event_type: 'PAYMENT.SALE.REFUNDED',
          resource_type: 'refund',
          summary: `A ${refund.amount.value} ${currency} sale payment was refunded`,
          // PayPal's v1 refund resource: the sale it gives back, no subscription named.
          resource: {
            id: refund.id,
            state: 'completed',
            amount: { total: refund.amount.value, currency },
            sale_id: capture.id,
            parent_payment: `PAYID-${capture.id}`,
            create_time: at,
            update_time: at,
          },
        },
      ],
    };
  }
}

export function remaining(capture: Capture): number {
  return cents(capture.amount) - capture.refunded;
}

export { cents, money };

/** A subscription as PayPal's API answers it (our working fields left out). */
export function subscriptionJson(subscription: Subscription, origin: string) {
  const { internal, ...shown } = subscription;
  const links = [
    {
      href: `${origin}/v1/billing/subscriptions/${subscription.id}`,
      rel: 'self',
      method: 'GET',
    },
  ];
  if (subscription.status === 'APPROVAL_PENDING') {
    links.unshift({
      href: `${origin}/webapps/billing/subscriptions?ba_token=${internal.baToken}`,
      rel: 'approve',
      method: 'GET',
    });
  }
  return { ...shown, links };
}

function subscriptionEvent(type: string, subscription: Subscription): Outgoing {
  const { internal: _internal, ...resource } = subscription;
  return {
    event_type: type,
    resource_type: 'subscription',
    summary: `Subscription ${type.split('.').at(-1)?.toLowerCase()}`,
    resource: structuredClone(resource),
  };
}

function saleEvent(type: string, capture: Capture): Outgoing {
  return {
    event_type: type,
    resource_type: 'sale',
    summary: `Payment completed for ${capture.amount.value} ${capture.amount.currency_code}`,
    // PayPal's v1 sale: a subscription's payment names it as its billing agreement.
    resource: {
      id: capture.id,
      state: 'completed',
      amount: { total: capture.amount.value, currency: capture.amount.currency_code },
      payment_mode: 'INSTANT_TRANSFER',
      protection_eligibility: 'ELIGIBLE',
      billing_agreement_id: capture.subscription_id,
      create_time: capture.create_time,
      update_time: capture.update_time,
    },
  };
}
