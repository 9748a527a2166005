import type { Params } from './form-body.ts';
import { addInterval, type NewItem, type StandinBilling } from './standin-billing.ts';
import { badRequest, noSuch, StripeApiError } from './standin-errors.ts';
import {
  type CheckoutSession,
  type Coupon,
  type Interval,
  list,
  type Price,
  type StandinObjects,
  type StripeList,
  type StripeObject,
  type Subscription,
} from './standin-objects.ts';

// The REST endpoints of Stripe's API that our adapter calls, answering Stripe's JSON.

export interface ApiRequest {
  method: string;
  path: string;
  params: Params;
}

type Answer = StripeObject | StripeList<StripeObject> | Record<string, unknown>;
type Handler = (match: string[], params: Params) => Answer;

export interface StandinApi {
  handle(request: ApiRequest): Record<string, unknown>;
}

function required(params: Params, key: string): string {
  const value = params.string(key);
  if (!value) throw badRequest(`Missing required param: ${key}.`, key, 'parameter_missing');
  return value;
}

export function standinApi(
  objects: StandinObjects,
  billing: StandinBilling,
  checkoutUrl: (session: CheckoutSession) => string,
): StandinApi {
  const routes: [string, RegExp, Handler][] = [];
  const on = (method: string, pattern: string, handler: Handler) =>
    routes.push([method, new RegExp(`^${pattern.replace(/:id/g, '([^/]+)')}$`), handler]);

  const paged = <T extends { id: string; created: number }>(
    all: T[],
    params: Params,
    url: string,
  ) => {
    const sorted = [...all].sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1));
    const after = params.string('starting_after');
    const from = after ? sorted.findIndex((entry) => entry.id === after) + 1 : 0;
    const limit = Math.min(100, params.int('limit') ?? 10);
    const page = sorted.slice(from, from + limit);
    return list(page, url, from + limit < sorted.length);
  };

  const newItems = (entries: Params[]): NewItem[] =>
    entries.map((entry) => ({
      price: billing.price(required(entry, 'price')),
      quantity: entry.int('quantity') ?? 1,
    }));

  const couponsOf = (entries: Params[]): Coupon[] =>
    entries.flatMap((entry) => {
      const id = entry.string('coupon');
      if (!id) return [];
      const coupon = objects.get('coupon', id);
      if (!coupon) throw noSuch('coupon', id);
      return [coupon];
    });

  // ---- customers ---------------------------------------------------------------------
  on('POST', '/v1/customers', (_m, p) =>
    objects.put({
      id: objects.newId('cus'),
      object: 'customer',
      created: objects.now(),
      email: p.string('email') ?? null,
      name: p.string('name') ?? null,
      metadata: p.metadata({}),
      invoice_settings: {
        default_payment_method:
          p.object('invoice_settings')?.string('default_payment_method') ?? null,
      },
      livemode: false,
    }),
  );
  on('GET', '/v1/customers/:id', ([id = '']) => billing.customer(id));
  on('POST', '/v1/customers/:id', ([id = ''], p) => {
    const customer = billing.customer(id);
    const previous = structuredClone(customer);
    if (p.has('email')) customer.email = p.string('email') || null;
    if (p.has('name')) customer.name = p.string('name') || null;
    customer.metadata = p.metadata(customer.metadata);
    const settings = p.object('invoice_settings');
    if (settings?.has('default_payment_method')) {
      const ref = settings.string('default_payment_method') || null;
      if (ref && billing.paymentMethod(ref).customer !== customer.id) {
        throw badRequest(`The customer does not have a payment method with the ID ${ref}.`);
      }
      customer.invoice_settings.default_payment_method = ref;
    }
    billing.emit('customer.updated', customer, { invoice_settings: previous.invoice_settings });
    return customer;
  });
  on('GET', '/v1/customers/:id/payment_methods', ([id = ''], p) => {
    billing.customer(id);
    const cards = objects.all('payment_method').filter((method) => method.customer === id);
    return paged(cards, p, `/v1/customers/${id}/payment_methods`);
  });

  // ---- payment methods ---------------------------------------------------------------
  on('POST', '/v1/payment_methods', (_m, p) => {
    const card = p.object('card');
    if (p.string('type') !== 'card' || !card) throw badRequest('Only cards here.', 'type');
    return billing.createCard({
      number: required(card, 'number'),
      expMonth: card.int('exp_month') ?? 12,
      expYear: card.int('exp_year') ?? 2034,
      name: p.object('billing_details')?.string('name') ?? null,
    });
  });
  on('GET', '/v1/payment_methods/:id', ([id = '']) => billing.paymentMethod(id));
  on('POST', '/v1/payment_methods/:id', ([id = ''], p) => {
    const method = billing.paymentMethod(id);
    const card = p.object('card');
    const month = card?.int('exp_month');
    const year = card?.int('exp_year');
    if (month !== undefined) {
      if (month < 1 || month > 12)
        throw badRequest('Invalid exp_month.', 'card[exp_month]', 'invalid_expiry_month');
      method.card.exp_month = month;
    }
    if (year !== undefined) method.card.exp_year = year < 100 ? 2000 + year : year;
    method.metadata = p.metadata(method.metadata);
    billing.emit('payment_method.updated', method);
    return method;
  });
  on('POST', '/v1/payment_methods/:id/attach', ([id = ''], p) =>
    billing.attach(billing.paymentMethod(id), billing.customer(required(p, 'customer'))),
  );
  on('POST', '/v1/payment_methods/:id/detach', ([id = '']) =>
    billing.detach(billing.paymentMethod(id)),
  );

  // ---- catalog -----------------------------------------------------------------------
  on('POST', '/v1/products', (_m, p) =>
    objects.put({
      id: p.string('id') ?? objects.newId('prod'),
      object: 'product',
      name: required(p, 'name'),
      active: true,
      metadata: p.metadata({}),
      created: objects.now(),
    }),
  );
  on('GET', '/v1/products/:id', ([id = '']) => {
    const found = objects.get('product', id);
    if (!found) throw noSuch('product', id);
    return found;
  });
  on('POST', '/v1/prices', (_m, p) => {
    const recurring = p.object('recurring');
    const productData = p.object('product_data');
    const product =
      p.string('product') ??
      objects.put({
        id: objects.newId('prod'),
        object: 'product',
        name: productData ? required(productData, 'name') : 'Product',
        active: true,
        metadata: productData?.metadata({}) ?? {},
        created: objects.now(),
      }).id;
    if (!objects.get('product', product)) throw noSuch('product', product);
    const amount = p.int('unit_amount');
    if (amount === undefined || amount < 0) throw badRequest('Invalid unit_amount.', 'unit_amount');
    const interval = recurring?.string('interval') as Interval | undefined;
    if (recurring && !['day', 'week', 'month', 'year'].includes(interval ?? '')) {
      throw badRequest('Invalid recurring[interval].', 'recurring[interval]');
    }
    return objects.put<Price>({
      id: objects.newId('price'),
      object: 'price',
      active: true,
      currency: required(p, 'currency').toLowerCase(),
      unit_amount: amount,
      product,
      type: recurring ? 'recurring' : 'one_time',
      recurring:
        recurring && interval
          ? { interval, interval_count: recurring.int('interval_count') ?? 1 }
          : null,
      metadata: p.metadata({}),
      created: objects.now(),
    });
  });
  on('GET', '/v1/prices/:id', ([id = '']) => billing.price(id));
  on('POST', '/v1/coupons', (_m, p) => {
    const percent = p.string('percent_off');
    const amountOff = p.int('amount_off');
    if ((percent === undefined) === (amountOff === undefined)) {
      throw badRequest('Exactly one of percent_off or amount_off is required.');
    }
    if (amountOff !== undefined && !p.string('currency')) {
      throw badRequest('currency is required with amount_off.', 'currency');
    }
    const duration = (p.string('duration') ?? 'once') as Coupon['duration'];
    return objects.put<Coupon>({
      id: p.string('id') ?? objects.newId('coupon').replace('coupon_test_', ''),
      object: 'coupon',
      name: p.string('name') ?? null,
      percent_off: percent === undefined ? null : Number(percent),
      amount_off: amountOff ?? null,
      currency: p.string('currency')?.toLowerCase() ?? null,
      duration,
      duration_in_months: duration === 'repeating' ? (p.int('duration_in_months') ?? 1) : null,
      metadata: p.metadata({}),
      valid: true,
      created: objects.now(),
    });
  });

  // ---- checkout ----------------------------------------------------------------------
  on('POST', '/v1/checkout/sessions', (_m, p) => {
    const mode = p.string('mode') as CheckoutSession['mode'] | undefined;
    if (!mode || !['subscription', 'payment', 'setup'].includes(mode)) {
      throw badRequest('Invalid mode.', 'mode');
    }
    const successUrl = required(p, 'success_url');
    const customer = p.string('customer');
    if (customer) billing.customer(customer);
    if (mode === 'setup' && !customer)
      throw badRequest('A setup session here needs a customer.', 'customer');
    const items = p.list('line_items').map((entry) => ({
      price: billing.price(required(entry, 'price')),
      quantity: entry.int('quantity') ?? 1,
    }));
    if (mode !== 'setup' && items.length === 0)
      throw badRequest('line_items is required.', 'line_items');
    if (mode === 'subscription' && !items.some((item) => item.price.recurring)) {
      throw badRequest(
        'You must provide at least one recurring price in `subscription` mode.',
        'line_items',
      );
    }
    if (mode === 'payment' && items.some((item) => item.price.recurring)) {
      throw badRequest('You specified `payment` mode but passed a recurring price.', 'line_items');
    }
    const coupons = couponsOf(p.list('discounts'));
    const session: CheckoutSession = {
      id: objects.newId('cs'),
      object: 'checkout.session',
      mode,
      status: 'open',
      payment_status: mode === 'setup' ? 'no_payment_required' : 'unpaid',
      customer: customer ?? null,
      client_reference_id: p.string('client_reference_id') ?? null,
      currency: items[0]?.price.currency ?? p.string('currency') ?? null,
      amount_total: items.reduce((sum, item) => sum + item.price.unit_amount * item.quantity, 0),
      url: null,
      success_url: successUrl,
      cancel_url: p.string('cancel_url') ?? null,
      payment_method_types: p.strings('allowed_payment_method_types'),
      allowed_payment_method_types: p.strings('allowed_payment_method_types'),
      subscription: null,
      invoice: null,
      payment_intent: null,
      setup_intent: null,
      metadata: p.metadata({}),
      expires_at: addInterval(objects.now(), 'day', 1),
      created: objects.now(),
      livemode: false,
      line_items: items.map((item) => ({ price: item.price.id, quantity: item.quantity })),
      coupons: coupons.map((coupon) => coupon.id),
      subscription_metadata: p.object('subscription_data')?.metadata({}) ?? {},
      invoice_creation: p.object('invoice_creation')?.bool('enabled') ?? false,
    };
    session.url = checkoutUrl(session);
    return objects.put(session);
  });
  on('GET', '/v1/checkout/sessions/:id', ([id = '']) => {
    const found = objects.get('checkout.session', id);
    if (!found) throw noSuch('checkout.session', id);
    return found;
  });

  // ---- subscriptions -----------------------------------------------------------------
  on('POST', '/v1/subscriptions', (_m, p) => {
    const customer = billing.customer(required(p, 'customer'));
    const method = p.string('default_payment_method');
    const behavior = p.string('payment_behavior') ?? 'allow_incomplete';
    const created = billing.createSubscription({
      customer,
      items: newItems(p.list('items')),
      paymentMethod: method
        ? billing.paymentMethod(method)
        : billing.cardFor({ customer: customer.id, default_payment_method: null } as Subscription),
      coupons: couponsOf(p.list('discounts')),
      metadata: p.metadata({}),
      errorIfIncomplete: behavior === 'error_if_incomplete',
    });
    return created.subscription;
  });
  on('GET', '/v1/subscriptions', (_m, p) => {
    const status = p.string('status');
    const customer = p.string('customer');
    const since = p.object('created')?.int('gte');
    const found = objects
      .all('subscription')
      .filter(
        (entry) =>
          (!customer || entry.customer === customer) &&
          (status === 'all'
            ? true
            : status
              ? entry.status === status
              : entry.status !== 'canceled') &&
          (since === undefined || entry.created >= since),
      );
    return paged(found, p, '/v1/subscriptions');
  });
  on('GET', '/v1/subscriptions/:id', ([id = '']) => billing.subscription(id));
  on('POST', '/v1/subscriptions/:id', ([id = ''], p) => {
    const subscription = billing.subscription(id);
    const ended = subscription.status === 'canceled';
    const onlyNotes = Object.keys(p.raw).every((key) =>
      ['metadata', 'cancellation_details', 'expand'].includes(key),
    );
    if (ended && !onlyNotes) {
      throw badRequest(
        'A canceled subscription can only update its cancellation_details and metadata.',
      );
    }
    const previous: Record<string, unknown> = {};
    if (p.has('metadata')) {
      previous.metadata = { ...subscription.metadata };
      subscription.metadata = p.metadata(subscription.metadata);
    }
    if (p.has('cancel_at_period_end')) {
      previous.cancel_at_period_end = subscription.cancel_at_period_end;
      subscription.cancel_at_period_end = p.bool('cancel_at_period_end') ?? false;
      subscription.cancel_at = subscription.cancel_at_period_end
        ? (subscription.items.data[0]?.current_period_end ?? null)
        : null;
      subscription.canceled_at = subscription.cancel_at_period_end ? objects.now() : null;
      subscription.cancellation_details = subscription.cancel_at_period_end
        ? { reason: 'cancellation_requested', comment: null, feedback: null }
        : null;
    }
    if (p.has('pause_collection')) {
      previous.pause_collection = subscription.pause_collection;
      const pause = p.object('pause_collection');
      const behavior = pause?.string('behavior');
      if (pause && !['void', 'keep_as_draft', 'mark_uncollectible'].includes(behavior ?? '')) {
        throw badRequest('Invalid pause_collection[behavior].', 'pause_collection[behavior]');
      }
      subscription.pause_collection = pause
        ? { behavior: behavior as 'void', resumes_at: null }
        : null;
    }
    if (p.has('default_payment_method')) {
      subscription.default_payment_method = p.string('default_payment_method') || null;
    }
    const entries = p.list('items');
    if (entries.length > 0) {
      const kept = new Map(subscription.items.data.map((item) => [item.id, item]));
      const next: NewItem[] = [];
      for (const entry of entries) {
        const itemId = entry.string('id');
        if (itemId && !kept.has(itemId)) throw noSuch('subscription_item', itemId);
        if (itemId) kept.delete(itemId);
        if (entry.bool('deleted')) continue;
        const held = itemId
          ? subscription.items.data.find((item) => item.id === itemId)
          : undefined;
        const priceId = entry.string('price') ?? held?.price.id;
        if (!priceId) throw badRequest('An item needs a price.', 'items');
        next.push({
          price: billing.price(priceId),
          quantity: entry.int('quantity') ?? held?.quantity ?? 1,
        });
      }
      for (const item of kept.values()) next.push({ price: item.price, quantity: item.quantity });
      const proration = p.string('proration_behavior') ?? 'create_prorations';
      const behavior = p.string('payment_behavior') ?? 'allow_incomplete';
      billing.changeItems(subscription, next, {
        invoiceNow: proration === 'always_invoice',
        pendingIfIncomplete: behavior === 'pending_if_incomplete',
        errorIfIncomplete: behavior === 'error_if_incomplete',
      });
      return subscription;
    }
    billing.emit('customer.subscription.updated', subscription, previous);
    return subscription;
  });
  on('DELETE', '/v1/subscriptions/:id', ([id = '']) => billing.cancel(billing.subscription(id)));

  // ---- invoices, payments, refunds ---------------------------------------------------
  on('POST', '/v1/invoices/create_preview', (_m, p) => {
    const subscription = billing.subscription(required(p, 'subscription'));
    const details = p.object('subscription_details');
    const entries = details?.list('items') ?? [];
    const next: NewItem[] = [];
    const kept = new Map(subscription.items.data.map((item) => [item.id, item]));
    for (const entry of entries) {
      const itemId = entry.string('id');
      if (itemId) kept.delete(itemId);
      if (entry.bool('deleted')) continue;
      next.push({
        price: billing.price(required(entry, 'price')),
        quantity: entry.int('quantity') ?? 1,
      });
    }
    for (const item of kept.values()) next.push({ price: item.price, quantity: item.quantity });
    const change = billing.prorate(subscription, next);
    const lines = change.lines.map((line) => ({
      ...line,
      id: objects.newId('il'),
      object: 'line_item',
      currency: subscription.currency,
      subscription: subscription.id,
      metadata: {},
    }));
    const total = lines.reduce((sum, line) => sum + line.amount, 0);
    return {
      id: `upcoming_in_${subscription.id}`,
      object: 'invoice',
      customer: subscription.customer,
      status: 'draft',
      billing_reason: 'subscription_update',
      currency: subscription.currency,
      lines: list(lines, '/v1/invoices/upcoming/lines'),
      subtotal: total,
      total,
      amount_due: Math.max(0, total),
      amount_paid: 0,
      amount_remaining: Math.max(0, total),
      period_start: change.periodStart,
      period_end: change.periodEnd,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscription.id, metadata: subscription.metadata },
        quote_details: null,
      },
      created: objects.now(),
      livemode: false,
    };
  });
  on('GET', '/v1/invoices/:id', ([id = '']) => billing.invoice(id));
  // Only the metadata here: it stays editable on a finalized (even paid) invoice.
  on('POST', '/v1/invoices/:id', ([id = ''], p) => {
    const invoice = billing.invoice(id);
    const other = Object.keys(p.raw).find((key) => !['metadata', 'expand'].includes(key));
    if (other && invoice.status !== 'draft') {
      throw badRequest(`Finalized invoices can't be updated in this way (${other}).`, other);
    }
    const previous = { metadata: { ...invoice.metadata } };
    invoice.metadata = p.metadata(invoice.metadata);
    billing.emit('invoice.updated', invoice, previous);
    return invoice;
  });
  on('POST', '/v1/invoices/:id/pay', ([id = ''], p) => {
    const invoice = billing.invoice(id);
    const methodId = p.string('payment_method');
    const subscription = objects.get(
      'subscription',
      invoice.parent?.subscription_details.subscription,
    );
    const method = methodId
      ? billing.paymentMethod(methodId)
      : subscription
        ? billing.cardFor(subscription)
        : undefined;
    const refusal = billing.chargeInvoice(invoice, method);
    if (refusal) throw new StripeApiError(402, { ...refusal });
    billing.settleAfterPayment(invoice);
    return invoice;
  });
  on('POST', '/v1/invoices/:id/mark_uncollectible', ([id = '']) =>
    billing.markUncollectible(billing.invoice(id)),
  );
  on('GET', '/v1/invoice_payments', (_m, p) => {
    const invoice = p.string('invoice');
    const intent = p.object('payment')?.string('payment_intent');
    const found = objects
      .all('invoice_payment')
      .filter(
        (entry) =>
          (!invoice || entry.invoice === invoice) &&
          (!intent || entry.payment.payment_intent === intent),
      );
    return paged(found, p, '/v1/invoice_payments');
  });
  on('GET', '/v1/payment_intents/:id', ([id = '']) => {
    const found = objects.get('payment_intent', id);
    if (!found) throw noSuch('payment_intent', id);
    return found;
  });
  on('GET', '/v1/charges/:id', ([id = '']) => {
    const found = objects.get('charge', id);
    if (!found) throw noSuch('charge', id);
    return found;
  });
  on('POST', '/v1/refunds', (_m, p) => {
    const amount = p.int('amount');
    const reason = p.string('reason');
    const paymentIntent = p.string('payment_intent');
    const charge = p.string('charge');
    if (!paymentIntent && !charge) throw badRequest('One of charge or payment_intent is required.');
    if (reason && !['duplicate', 'fraudulent', 'requested_by_customer'].includes(reason)) {
      throw badRequest('Invalid reason.', 'reason');
    }
    return billing.refund({
      ...(paymentIntent ? { paymentIntent } : {}),
      ...(charge ? { charge } : {}),
      ...(amount !== undefined ? { amount } : {}),
      ...(reason ? { reason } : {}),
      metadata: p.metadata({}),
    });
  });
  on('GET', '/v1/refunds/:id', ([id = '']) => {
    const found = objects.get('refund', id);
    if (!found) throw noSuch('refund', id);
    return found;
  });
  on('GET', '/v1/setup_intents/:id', ([id = '']) => {
    const found = objects.get('setup_intent', id);
    if (!found) throw noSuch('setup_intent', id);
    return found;
  });

  return {
    handle({ method, path, params }) {
      for (const [verb, pattern, handler] of routes) {
        const match = verb === method ? pattern.exec(path) : null;
        if (!match) continue;
        const answer = handler(match.slice(1), params);
        const expand = params.strings('expand');
        if (answer.object === 'list') {
          const listed = answer as { data: StripeObject[] };
          return {
            ...answer,
            data: listed.data.map((entry) =>
              objects.present(
                entry,
                expand.filter((path) => path.startsWith('data.')).map((path) => path.slice(5)),
              ),
            ),
          };
        }
        const id = (answer as { id?: unknown }).id;
        const stored =
          typeof id === 'string' ? objects.get(answer.object as 'customer', id) : undefined;
        return stored ? objects.present(stored, expand) : (answer as Record<string, unknown>);
      }
      throw new StripeApiError(404, {
        type: 'invalid_request_error',
        message: `Unrecognized request URL (${method}: ${path}).`,
      });
    },
  };
}
