import type { StandinBilling } from './standin-billing.ts';
import { StripeApiError } from './standin-errors.ts';
import type { CheckoutSession, Invoice, StandinObjects } from './standin-objects.ts';
import { testCard } from './test-cards.ts';

// Stripe's hosted Checkout page, as far as a customer sees it in a test: what is sold, a
// card form prefilled with 4242, and "Pay" / "Cancel". Paying does what Checkout does:
// saves the card to the customer and starts the subscription (or takes the one payment, or
// only saves the card in setup mode), then redirects to success_url.

export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  name: string | null;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function money(amount: number, currency: string): string {
  return new Intl.NumberFormat('en', {
    style: 'currency',
    currency: currency.toUpperCase(),
  }).format(amount / 100);
}

export function checkoutPage(
  objects: StandinObjects,
  session: CheckoutSession,
  error: string | null = null,
  card = '4242 4242 4242 4242',
): string {
  const rows = session.line_items.map((item) => {
    const price = objects.get('price', item.price);
    const product = objects.get('product', price?.product);
    const every = price?.recurring
      ? ` / ${price.recurring.interval_count > 1 ? `${price.recurring.interval_count} ` : ''}${price.recurring.interval}${price.recurring.interval_count > 1 ? 's' : ''}`
      : '';
    return `<li>${escapeHtml(product?.name ?? item.price)} × ${item.quantity}: ${price ? money(price.unit_amount * item.quantity, price.currency) : ''}${every}</li>`;
  });
  const action = session.mode === 'setup' ? 'Save card' : 'Pay';
  const title = session.mode === 'setup' ? 'Save a card' : 'Pay with card';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Stripe Checkout (stand-in)</title></head>
<body>
<main>
<h1>${title}</h1>
<ul>${rows.join('')}</ul>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/c/pay/${session.id}">
  <label>Card number <input name="cardnumber" autocomplete="cc-number" value="${escapeHtml(card)}"></label>
  <label>Expiry (MM / YY) <input name="exp" value="12 / 34"></label>
  <label>CVC <input name="cvc" value="123"></label>
  <label>Cardholder name <input name="name" value="Test Customer"></label>
  <button type="submit">${action}</button>
</form>
<form method="post" action="/c/pay/${session.id}/cancel"><button type="submit">Cancel</button></form>
</main>
</body></html>`;
}

export function parseCard(form: URLSearchParams): CardInput {
  const [month = '12', year = '34'] = (form.get('exp') ?? '').split('/').map((part) => part.trim());
  return {
    number: (form.get('cardnumber') ?? '').replace(/\s+/g, ''),
    expMonth: Number.parseInt(month, 10) || 12,
    expYear: Number.parseInt(year, 10) || 34,
    name: form.get('name') || null,
  };
}

/** What paying on the page does; a refused card throws Stripe's 402 and changes nothing more. */
export function completeCheckout(
  objects: StandinObjects,
  billing: StandinBilling,
  session: CheckoutSession,
  card: CardInput,
): void {
  if (session.status !== 'open') {
    throw new StripeApiError(400, {
      type: 'invalid_request_error',
      message: 'This Checkout Session is no longer active.',
    });
  }
  const customer = session.customer
    ? billing.customer(session.customer)
    : objects.put({
        id: objects.newId('cus'),
        object: 'customer',
        created: objects.now(),
        email: null,
        name: card.name,
        metadata: {},
        invoice_settings: { default_payment_method: null },
        livemode: false,
      });
  session.customer = customer.id;
  const method = billing.createCard(card);
  const items = session.line_items.map((item) => ({
    price: billing.price(item.price),
    quantity: item.quantity,
  }));
  const coupons = session.coupons.flatMap((id) => {
    const coupon = objects.get('coupon', id);
    return coupon ? [coupon] : [];
  });
  if (session.mode === 'subscription') {
    billing.attach(method, customer);
    const { subscription, invoice } = billing.createSubscription({
      customer,
      items,
      paymentMethod: method,
      coupons,
      metadata: session.subscription_metadata,
      errorIfIncomplete: true,
    });
    session.subscription = subscription.id;
    session.invoice = invoice.id;
    session.payment_status = 'paid';
  } else if (session.mode === 'payment') {
    billing.attach(method, customer);
    // Checkout makes the invoice once the payment succeeded: a refused card leaves none.
    const refused = testCard(method.number ?? '').onCharge;
    if (refused) throw new StripeApiError(402, { ...refused });
    const now = objects.now();
    const invoice: Invoice = billing.createInvoice({
      customer: customer.id,
      subscription: null,
      reason: 'manual',
      currency: items[0]?.price.currency ?? 'usd',
      discounts: [],
      period: { start: now, end: now },
      lines: items.map((item) => ({
        amount: item.price.unit_amount * item.quantity,
        description: objects.get('product', item.price.product)?.name ?? item.price.id,
        quantity: item.quantity,
        period: { start: now, end: now },
        pricing: {
          type: 'price_details' as const,
          price_details: { price: item.price.id, product: item.price.product },
        },
        parent: null,
      })),
    });
    invoice.metadata = { ...session.metadata };
    const refusal = invoice.status === 'open' ? billing.chargeInvoice(invoice, method) : null;
    if (refusal) throw new StripeApiError(402, { ...refusal });
    session.invoice = invoice.id;
    session.payment_intent = invoice.payments.data[0]?.payment.payment_intent ?? null;
    session.payment_status = 'paid';
  } else {
    billing.attach(method, customer);
    const intent = objects.put({
      id: objects.newId('seti'),
      object: 'setup_intent',
      customer: customer.id,
      payment_method: method.id,
      status: 'succeeded',
      usage: 'off_session',
      created: objects.now(),
    });
    session.setup_intent = intent.id;
    billing.emit('setup_intent.succeeded', intent);
  }
  session.status = 'complete';
  billing.emit('checkout.session.completed', session);
}

export function successUrl(session: CheckoutSession): string {
  return session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id);
}
