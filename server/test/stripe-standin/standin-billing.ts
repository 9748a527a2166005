import { badRequest, noSuch, StripeApiError } from './standin-errors.ts';
import {
  type Charge,
  type Coupon,
  type Customer,
  type Discount,
  type Interval,
  type Invoice,
  type InvoiceLine,
  list,
  type PaymentError,
  type PaymentIntent,
  type PaymentMethod,
  type Price,
  type Refund,
  type StandinObjects,
  type StripeObject,
  type Subscription,
  type SubscriptionItem,
} from './standin-objects.ts';
import { brandOf, luhnValid, testCard } from './test-cards.ts';

// What Stripe does behind its API, in the few ways our adapter asks: cards saved and
// charged, subscriptions started, renewed, changed with proration, paused, cancelled,
// invoices paid and refunded. Every change is announced as Stripe's event.

export type Emit = (type: string, object: StripeObject, previous?: unknown) => void;

export function addInterval(seconds: number, interval: Interval, count: number): number {
  const date = new Date(seconds * 1000);
  if (interval === 'day') date.setUTCDate(date.getUTCDate() + count);
  else if (interval === 'week') date.setUTCDate(date.getUTCDate() + 7 * count);
  else if (interval === 'month') date.setUTCMonth(date.getUTCMonth() + count);
  else date.setUTCFullYear(date.getUTCFullYear() + count);
  return Math.floor(date.getTime() / 1000);
}

export interface NewItem {
  price: Price;
  quantity: number;
}

export class StandinBilling {
  constructor(
    readonly objects: StandinObjects,
    readonly emit: Emit,
    readonly hostedUrl: (path: string) => string,
  ) {}

  customer(id: string): Customer {
    const found = this.objects.get('customer', id);
    if (!found) throw noSuch('customer', id);
    return found;
  }

  price(id: string): Price {
    const found = this.objects.get('price', id);
    if (!found) throw noSuch('price', id);
    return found;
  }

  subscription(id: string): Subscription {
    const found = this.objects.get('subscription', id);
    if (!found) throw noSuch('subscription', id);
    return found;
  }

  invoice(id: string): Invoice {
    const found = this.objects.get('invoice', id);
    if (!found) throw noSuch('invoice', id);
    return found;
  }

  paymentMethod(id: string): PaymentMethod {
    const found = this.objects.get('payment_method', id);
    if (!found) throw noSuch('PaymentMethod', id);
    return found;
  }

  // ---- cards -------------------------------------------------------------------------

  createCard(input: {
    number: string;
    expMonth: number;
    expYear: number;
    name?: string | null;
  }): PaymentMethod {
    const number = input.number.replace(/\s+/g, '');
    if (!luhnValid(number)) {
      throw new StripeApiError(402, {
        type: 'card_error',
        code: 'incorrect_number',
        param: 'card[number]',
        message: 'Your card number is incorrect.',
      });
    }
    const expYear = input.expYear < 100 ? 2000 + input.expYear : input.expYear;
    return this.objects.put({
      id: this.objects.newId('pm'),
      object: 'payment_method',
      type: 'card',
      customer: null,
      created: this.objects.now(),
      card: {
        brand: brandOf(number),
        last4: number.slice(-4),
        exp_month: input.expMonth,
        exp_year: expYear,
        funding: 'credit',
        country: 'US',
      },
      billing_details: { name: input.name ?? null, email: null },
      metadata: {},
      number,
    });
  }

  attach(method: PaymentMethod, customer: Customer): PaymentMethod {
    const refusal = testCard(method.number ?? '').onAttach;
    if (refusal) throw new StripeApiError(402, { ...refusal });
    if (method.customer && method.customer !== customer.id) {
      throw badRequest('This PaymentMethod is already attached to another customer.');
    }
    if (method.customer === customer.id) return method;
    method.customer = customer.id;
    this.emit('payment_method.attached', method);
    return method;
  }

  detach(method: PaymentMethod): PaymentMethod {
    if (!method.customer) throw badRequest('The payment method is not attached to a customer.');
    const customer = this.objects.get('customer', method.customer);
    method.customer = null;
    if (customer?.invoice_settings.default_payment_method === method.id) {
      customer.invoice_settings.default_payment_method = null;
      this.emit('customer.updated', customer);
    }
    this.emit('payment_method.detached', method);
    return method;
  }

  // ---- invoices and charges ----------------------------------------------------------

  #discountAmount(subtotal: number, discounts: string[]): { amount: number; discount: string }[] {
    const amounts = [];
    let left = subtotal;
    for (const id of discounts) {
      const discount = this.objects.get('discount', id);
      const coupon = this.objects.get('coupon', discount?.source.coupon);
      if (!discount || !coupon) continue;
      const off =
        coupon.percent_off !== null
          ? Math.round((left * coupon.percent_off) / 100)
          : Math.min(left, coupon.amount_off ?? 0);
      left -= off;
      amounts.push({ amount: off, discount: discount.id });
    }
    return amounts;
  }

  createInvoice(input: {
    customer: string;
    subscription: Subscription | null;
    reason: Invoice['billing_reason'];
    lines: Omit<InvoiceLine, 'id' | 'object' | 'currency' | 'subscription' | 'metadata'>[];
    currency: string;
    discounts: string[];
    period: { start: number; end: number };
  }): Invoice {
    const id = this.objects.newId('in');
    const subtotal = input.lines.reduce((sum, line) => sum + line.amount, 0);
    const discounted = this.#discountAmount(Math.max(0, subtotal), input.discounts);
    const total = subtotal - discounted.reduce((sum, entry) => sum + entry.amount, 0);
    const now = this.objects.now();
    const due = Math.max(0, total);
    const invoice = this.objects.put<Invoice>({
      id,
      object: 'invoice',
      customer: input.customer,
      status: due === 0 ? 'paid' : 'open',
      billing_reason: input.reason,
      currency: input.currency,
      lines: list(
        input.lines.map((line) => ({
          ...line,
          id: this.objects.newId('il'),
          object: 'line_item' as const,
          currency: input.currency,
          subscription: input.subscription?.id ?? null,
          metadata: {},
        })),
        `/v1/invoices/${id}/lines`,
      ),
      subtotal,
      total,
      total_discount_amounts: discounted,
      total_taxes: [],
      discounts: discounted.map((entry) => entry.discount),
      amount_due: due,
      amount_paid: 0,
      amount_remaining: due,
      attempt_count: 0,
      attempted: false,
      period_start: input.period.start,
      period_end: input.period.end,
      parent: input.subscription
        ? {
            type: 'subscription_details',
            subscription_details: {
              subscription: input.subscription.id,
              metadata: { ...input.subscription.metadata },
            },
            quote_details: null,
          }
        : null,
      payments: list([], `/v1/invoices/${id}/payments`),
      hosted_invoice_url: this.hostedUrl(`/i/${id}`),
      status_transitions: {
        finalized_at: now,
        paid_at: due === 0 ? now : null,
        voided_at: null,
        marked_uncollectible_at: null,
      },
      metadata: {},
      created: now,
      livemode: false,
    });
    this.emit('invoice.created', invoice);
    this.emit('invoice.finalized', invoice);
    if (invoice.status === 'paid') this.emit('invoice.paid', invoice);
    return invoice;
  }

  /** Charges an open invoice to `method`: paid, or the card's refusal (the invoice stays open). */
  chargeInvoice(invoice: Invoice, method: PaymentMethod | undefined): PaymentError | null {
    if (invoice.status !== 'open') {
      throw badRequest(
        `Invoice ${invoice.id} is ${invoice.status}: only an open one is paid.`,
        undefined,
        'invoice_not_editable',
      );
    }
    const now = this.objects.now();
    if (!method) {
      throw badRequest(
        'This customer has no attached payment source or default payment method.',
        undefined,
        'invoice_no_customer_payment_method',
      );
    }
    const refusal = testCard(method.number ?? '').onCharge ?? null;
    const intent = this.objects.put<PaymentIntent>({
      id: this.objects.newId('pi'),
      object: 'payment_intent',
      amount: invoice.amount_remaining,
      amount_received: refusal ? 0 : invoice.amount_remaining,
      currency: invoice.currency,
      customer: invoice.customer,
      payment_method: method.id,
      status: refusal ? 'requires_payment_method' : 'succeeded',
      latest_charge: null,
      last_payment_error: refusal ? { ...refusal, payment_method: method } : null,
      metadata: {},
      created: now,
    });
    const charge = this.objects.put<Charge>({
      id: this.objects.newId('ch'),
      object: 'charge',
      amount: intent.amount,
      amount_captured: refusal ? 0 : intent.amount,
      amount_refunded: 0,
      currency: intent.currency,
      customer: intent.customer,
      payment_intent: intent.id,
      payment_method: method.id,
      paid: !refusal,
      refunded: false,
      status: refusal ? 'failed' : 'succeeded',
      failure_code: refusal?.code ?? null,
      failure_message: refusal?.message ?? null,
      outcome: {
        type: refusal ? 'issuer_declined' : 'authorized',
        reason: refusal?.decline_code ?? null,
        seller_message: refusal
          ? 'The bank did not return any further details.'
          : 'Payment complete.',
      },
      created: now,
    });
    intent.latest_charge = charge.id;
    invoice.payments.data.unshift(
      this.objects.put({
        id: this.objects.newId('inpay'),
        object: 'invoice_payment',
        invoice: invoice.id,
        amount_paid: refusal ? null : intent.amount,
        amount_requested: intent.amount,
        currency: invoice.currency,
        is_default: true,
        status: refusal ? 'open' : 'paid',
        payment: { type: 'payment_intent', payment_intent: intent.id },
        status_transitions: { paid_at: refusal ? null : now, canceled_at: null },
        created: now,
      }),
    );
    invoice.attempt_count += 1;
    invoice.attempted = true;
    if (refusal) {
      this.emit('charge.failed', charge);
      this.emit('payment_intent.payment_failed', intent);
      this.emit('invoice.payment_failed', invoice);
      return refusal;
    }
    invoice.status = 'paid';
    invoice.amount_paid = intent.amount;
    invoice.amount_remaining = 0;
    invoice.status_transitions.paid_at = now;
    this.emit('charge.succeeded', charge);
    this.emit('payment_intent.succeeded', intent);
    this.emit('invoice.paid', invoice);
    this.emit('invoice.payment_succeeded', invoice);
    return null;
  }

  /** The card a subscription's invoices are charged to. */
  cardFor(subscription: Subscription): PaymentMethod | undefined {
    const customer = this.objects.get('customer', subscription.customer);
    return this.objects.get(
      'payment_method',
      subscription.default_payment_method ?? customer?.invoice_settings.default_payment_method,
    );
  }

  refund(input: {
    paymentIntent?: string;
    charge?: string;
    amount?: number;
    reason?: string;
    metadata?: Record<string, string>;
  }): Refund {
    const intent = this.objects.get('payment_intent', input.paymentIntent);
    const charge =
      this.objects.get('charge', input.charge) ?? this.objects.get('charge', intent?.latest_charge);
    if (!charge)
      throw noSuch(
        input.charge ? 'charge' : 'payment_intent',
        input.charge ?? input.paymentIntent ?? '',
      );
    if (charge.status !== 'succeeded') throw badRequest(`Charge ${charge.id} has not succeeded.`);
    const left = charge.amount - charge.amount_refunded;
    const amount = input.amount ?? left;
    if (left === 0) {
      throw badRequest(
        `Charge ${charge.id} has already been refunded.`,
        undefined,
        'charge_already_refunded',
      );
    }
    if (amount <= 0 || amount > left) {
      throw badRequest(
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
        'amount',
      );
    }
    const refund = this.objects.put<Refund>({
      id: this.objects.newId('re'),
      object: 'refund',
      amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: charge.payment_intent,
      reason: input.reason ?? null,
      status: 'succeeded',
      metadata: input.metadata ?? {},
      created: this.objects.now(),
    });
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    this.emit('refund.created', refund);
    this.emit('charge.refunded', charge);
    return refund;
  }

  // ---- subscriptions -----------------------------------------------------------------

  #lineFor(
    item: SubscriptionItem,
    amount: number,
    description: string,
    proration: boolean,
    period: { start: number; end: number },
  ) {
    return {
      amount,
      description,
      quantity: item.quantity,
      period,
      pricing: {
        type: 'price_details' as const,
        price_details: { price: item.price.id, product: item.price.product },
      },
      parent: {
        type: 'subscription_item_details' as const,
        subscription_item_details: {
          subscription: item.subscription,
          subscription_item: item.id,
          proration,
          invoice_item: null,
          proration_details: null,
        },
      },
    };
  }

  #productName(price: Price): string {
    return this.objects.get('product', price.product)?.name ?? price.product;
  }

  #discountFor(coupon: Coupon, customer: string, subscription: string, start: number): Discount {
    return this.objects.put<Discount>({
      id: this.objects.newId('di'),
      object: 'discount',
      source: { type: 'coupon', coupon: coupon.id },
      customer,
      subscription,
      invoice: null,
      start,
      end:
        coupon.duration === 'repeating'
          ? addInterval(start, 'month', coupon.duration_in_months ?? 1)
          : null,
    });
  }

  /**
   * A new subscription, charged at once. `errorIfIncomplete` (Checkout, and
   * `payment_behavior=error_if_incomplete`): a refused card makes nothing and answers 402.
   */
  createSubscription(input: {
    customer: Customer;
    items: NewItem[];
    paymentMethod: PaymentMethod | undefined;
    coupons: Coupon[];
    metadata: Record<string, string>;
    errorIfIncomplete: boolean;
  }): { subscription: Subscription; invoice: Invoice; refusal: PaymentError | null } {
    const first = input.items[0]?.price;
    if (!first?.recurring) throw badRequest('A subscription needs a recurring price.', 'items');
    const method = input.paymentMethod;
    const refusal = method ? (testCard(method.number ?? '').onCharge ?? null) : null;
    if (refusal && input.errorIfIncomplete) throw new StripeApiError(402, { ...refusal });
    const now = this.objects.now();
    const end = addInterval(now, first.recurring.interval, first.recurring.interval_count);
    const id = this.objects.newId('sub');
    const subscription = this.objects.put<Subscription>({
      id,
      object: 'subscription',
      customer: input.customer.id,
      status: 'incomplete',
      currency: first.currency,
      items: list(
        input.items.map((item) => ({
          id: this.objects.newId('si'),
          object: 'subscription_item' as const,
          price: item.price,
          quantity: item.quantity,
          subscription: id,
          current_period_start: now,
          current_period_end: end,
          metadata: {},
          created: now,
        })),
        `/v1/subscription_items?subscription=${id}`,
      ),
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      cancellation_details: null,
      ended_at: null,
      pause_collection: null,
      default_payment_method: method?.id ?? null,
      discounts: [],
      latest_invoice: null,
      pending_update: null,
      billing_cycle_anchor: now,
      start_date: now,
      collection_method: 'charge_automatically',
      metadata: { ...input.metadata },
      created: now,
      livemode: false,
    });
    subscription.discounts = input.coupons.map(
      (coupon) => this.#discountFor(coupon, input.customer.id, id, now).id,
    );
    this.emit('customer.subscription.created', subscription);
    const invoice = this.createInvoice({
      customer: input.customer.id,
      subscription,
      reason: 'subscription_create',
      currency: subscription.currency,
      discounts: subscription.discounts,
      period: { start: now, end },
      lines: subscription.items.data.map((item) =>
        this.#lineFor(
          item,
          (item.price.unit_amount ?? 0) * item.quantity,
          `${item.quantity} × ${this.#productName(item.price)}`,
          false,
          { start: now, end },
        ),
      ),
    });
    subscription.latest_invoice = invoice.id;
    const failed = invoice.status === 'open' ? this.chargeInvoice(invoice, method) : null;
    this.#dropUsedDiscounts(subscription);
    if (!failed) {
      subscription.status = 'active';
      this.emit('customer.subscription.updated', subscription);
    }
    return { subscription, invoice, refusal: failed };
  }

  /** A coupon once (or whose months are over) discounts no further invoice. */
  #dropUsedDiscounts(subscription: Subscription) {
    const now = this.objects.now();
    subscription.discounts = subscription.discounts.filter((id) => {
      const discount = this.objects.get('discount', id);
      const coupon = this.objects.get('coupon', discount?.source.coupon);
      if (!discount || !coupon) return false;
      if (coupon.duration === 'once') return false;
      return discount.end === null || discount.end > now;
    });
  }

  /**
   * A change of items, prorated as Stripe does: unused time of the old items credited, the
   * rest of the period of the new ones charged; a change of billing period restarts the
   * cycle now with the new price in full.
   */
  prorate(subscription: Subscription, items: NewItem[]) {
    const now = this.objects.now();
    const held = subscription.items.data[0];
    const next = items[0]?.price;
    if (!held || !next?.recurring)
      throw badRequest('A subscription needs a recurring price.', 'items');
    const same =
      held.price.recurring?.interval === next.recurring.interval &&
      held.price.recurring?.interval_count === next.recurring.interval_count;
    const start = held.current_period_start;
    const end = held.current_period_end;
    const left = Math.min(1, Math.max(0, (end - now) / Math.max(1, end - start)));
    const newEnd = same
      ? end
      : addInterval(now, next.recurring.interval, next.recurring.interval_count);
    const lines = subscription.items.data.map((item) =>
      this.#lineFor(
        item,
        -Math.round((item.price.unit_amount ?? 0) * item.quantity * left),
        `Unused time on ${this.#productName(item.price)}`,
        true,
        { start: now, end },
      ),
    );
    const newItems: SubscriptionItem[] = items.map((item) => ({
      id: this.objects.newId('si'),
      object: 'subscription_item',
      price: item.price,
      quantity: item.quantity,
      subscription: subscription.id,
      current_period_start: same ? start : now,
      current_period_end: newEnd,
      metadata: {},
      created: now,
    }));
    for (const item of newItems) {
      const full = (item.price.unit_amount ?? 0) * item.quantity;
      lines.push(
        same
          ? this.#lineFor(
              item,
              Math.round(full * left),
              `Remaining time on ${this.#productName(item.price)}`,
              true,
              { start: now, end },
            )
          : this.#lineFor(
              item,
              full,
              `${item.quantity} × ${this.#productName(item.price)}`,
              false,
              { start: now, end: newEnd },
            ),
      );
    }
    return { lines, newItems, periodStart: same ? start : now, periodEnd: newEnd, restart: !same };
  }

  changeItems(
    subscription: Subscription,
    items: NewItem[],
    options: { invoiceNow: boolean; pendingIfIncomplete: boolean; errorIfIncomplete: boolean },
  ): { invoice: Invoice | null; refusal: PaymentError | null } {
    if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
      throw badRequest(
        'A canceled subscription can only update its cancellation_details and metadata.',
      );
    }
    const change = this.prorate(subscription, items);
    const method = this.cardFor(subscription);
    const refusal = method ? (testCard(method.number ?? '').onCharge ?? null) : null;
    if (refusal && options.errorIfIncomplete) throw new StripeApiError(402, { ...refusal });
    const previous = { items: structuredClone(subscription.items) };
    if (!options.invoiceNow) {
      subscription.items.data = change.newItems;
      this.emit('customer.subscription.updated', subscription, previous);
      return { invoice: null, refusal: null };
    }
    const invoice = this.createInvoice({
      customer: subscription.customer,
      subscription,
      reason: 'subscription_update',
      currency: subscription.currency,
      discounts: [],
      period: { start: this.objects.now(), end: change.periodEnd },
      lines: change.lines,
    });
    const failed = invoice.status === 'open' ? this.chargeInvoice(invoice, method) : null;
    if (failed && options.pendingIfIncomplete) {
      // Stripe keeps the old items until the invoice is paid, and says so in pending_update.
      subscription.pending_update = {
        expires_at: this.objects.now() + 23 * 3600,
        subscription_items: change.newItems,
      };
      subscription.latest_invoice = invoice.id;
      this.emit('customer.subscription.updated', subscription, previous);
      return { invoice, refusal: failed };
    }
    subscription.items.data = change.newItems;
    subscription.latest_invoice = invoice.id;
    if (change.restart) subscription.billing_cycle_anchor = change.periodStart;
    if (failed) subscription.status = 'past_due';
    this.emit('customer.subscription.updated', subscription, previous);
    return { invoice, refusal: failed };
  }

  cancel(subscription: Subscription): Subscription {
    if (subscription.status === 'canceled') {
      throw badRequest(
        `No such subscription: '${subscription.id}' is already canceled.`,
        undefined,
        'resource_missing',
      );
    }
    const now = this.objects.now();
    subscription.status = 'canceled';
    subscription.canceled_at = now;
    subscription.ended_at = now;
    subscription.cancel_at_period_end = false;
    subscription.cancellation_details = {
      reason: 'cancellation_requested',
      comment: null,
      feedback: null,
    };
    this.emit('customer.subscription.deleted', subscription);
    return subscription;
  }

  markUncollectible(invoice: Invoice): Invoice {
    if (invoice.status !== 'open') {
      throw badRequest(
        `You can only mark an open invoice uncollectible; ${invoice.id} is ${invoice.status}.`,
        undefined,
        'invoice_not_editable',
      );
    }
    invoice.status = 'uncollectible';
    invoice.status_transitions.marked_uncollectible_at = this.objects.now();
    this.emit('invoice.marked_uncollectible', invoice);
    return invoice;
  }

  /**
   * The test control: the subscription's period ends now and the next one is billed — or
   * it ends, if set to. `fail` refuses the charge whatever the card.
   */
  renew(subscription: Subscription, options: { fail: boolean }): Invoice | null {
    if (subscription.status === 'canceled') throw badRequest('The subscription has ended.');
    if (subscription.cancel_at_period_end) {
      this.cancel(subscription);
      return null;
    }
    const now = this.objects.now();
    const first = subscription.items.data[0]?.price.recurring;
    if (!first) throw badRequest('No recurring item.');
    const end = addInterval(now, first.interval, first.interval_count);
    for (const item of subscription.items.data) {
      item.current_period_start = now;
      item.current_period_end = end;
    }
    const invoice = this.createInvoice({
      customer: subscription.customer,
      subscription,
      reason: 'subscription_cycle',
      currency: subscription.currency,
      discounts: subscription.discounts,
      period: { start: now, end },
      lines: subscription.items.data.map((item) =>
        this.#lineFor(
          item,
          (item.price.unit_amount ?? 0) * item.quantity,
          `${item.quantity} × ${this.#productName(item.price)}`,
          false,
          { start: now, end },
        ),
      ),
    });
    subscription.latest_invoice = invoice.id;
    this.#dropUsedDiscounts(subscription);
    if (subscription.pause_collection?.behavior === 'void' && invoice.status === 'open') {
      // Paused collection: the period's invoice is voided, nothing is charged.
      invoice.status = 'void';
      invoice.amount_remaining = 0;
      invoice.status_transitions.voided_at = now;
      this.emit('invoice.voided', invoice);
      this.emit('customer.subscription.updated', subscription);
      return invoice;
    }
    let failed: PaymentError | null = null;
    if (invoice.status === 'open') {
      const card = this.cardFor(subscription);
      if (options.fail && card) {
        const saved = card.number;
        card.number = '4000000000000341';
        failed = this.chargeInvoice(invoice, card);
        card.number = saved;
      } else {
        failed = this.chargeInvoice(invoice, card);
      }
    }
    subscription.status = failed ? 'past_due' : 'active';
    this.emit('customer.subscription.updated', subscription);
    return invoice;
  }

  /** An invoice paid late makes its subscription whole again. */
  settleAfterPayment(invoice: Invoice) {
    const subscription = this.objects.get(
      'subscription',
      invoice.parent?.subscription_details.subscription,
    );
    if (!subscription || invoice.status !== 'paid') return;
    if (subscription.pending_update && subscription.latest_invoice === invoice.id) {
      subscription.items.data = subscription.pending_update
        .subscription_items as SubscriptionItem[];
      subscription.pending_update = null;
    }
    if (['incomplete', 'past_due', 'unpaid'].includes(subscription.status)) {
      subscription.status = 'active';
    }
    this.emit('customer.subscription.updated', subscription);
  }
}
