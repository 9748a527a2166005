import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import type { GatewayCustomerInput, GatewayDiscount, GatewayPrice } from '../gateway.ts';
import { stripeCurrency } from './stripe-client.ts';
import { asking, askingOrNull } from './stripe-errors.ts';

// Our customers, products and coupons as Stripe's customers, prices and coupons. Each
// creation carries an idempotency key made of what it creates, so a retried call (ours or
// the SDK's) makes one object, and a changed input makes a new one.

const keyOf = (...parts: (string | number | null)[]) =>
  createHash('sha256').update(parts.join('|')).digest('base64url').slice(0, 32);

export async function ensureCustomer(
  stripe: Stripe,
  customer: GatewayCustomerInput,
): Promise<string> {
  const created = await asking('create a customer', () =>
    stripe.customers.create(
      {
        email: customer.email,
        name: customer.name,
        metadata: { userId: String(customer.userId) },
      },
      { idempotencyKey: `customer-${customer.userId}-${keyOf(customer.email, customer.name)}` },
    ),
  );
  return created.id;
}

function matches(held: Stripe.Price, price: GatewayPrice): boolean {
  if (!held.active) return false;
  if (held.unit_amount !== price.amount || held.currency !== stripeCurrency(price.currency)) {
    return false;
  }
  if (price.onetime) return held.recurring === null;
  return (
    held.recurring?.interval === price.interval &&
    held.recurring.interval_count === price.intervalCount
  );
}

/**
 * The Stripe price of our product: the one we made before while it still says the same,
 * else a new product and price (Stripe's prices cannot change their amount or period).
 */
export async function ensurePrice(stripe: Stripe, price: GatewayPrice): Promise<string> {
  if (price.ref) {
    const held = await askingOrNull('read a price', () => stripe.prices.retrieve(price.ref ?? ''));
    if (held && matches(held, price)) return held.id;
  }
  const key = keyOf(
    price.productId,
    price.name,
    price.amount,
    price.currency,
    price.interval,
    price.intervalCount,
    price.onetime ? 'onetime' : 'recurring',
  );
  const metadata = {
    productId: String(price.productId),
    // A one-time price has no period at Stripe: ours travels along for the snapshot.
    interval: price.interval ?? '',
    intervalCount: String(price.intervalCount),
  };
  const product = await asking('create a product', () =>
    stripe.products.create(
      { name: price.name, metadata: { productId: String(price.productId) } },
      { idempotencyKey: `product-${key}` },
    ),
  );
  const created = await asking('create a price', () =>
    stripe.prices.create(
      {
        product: product.id,
        currency: stripeCurrency(price.currency),
        unit_amount: price.amount,
        ...(price.onetime || !price.interval
          ? {}
          : { recurring: { interval: price.interval, interval_count: price.intervalCount } }),
        metadata,
      },
      { idempotencyKey: `price-${key}` },
    ),
  );
  return created.id;
}

/**
 * A Stripe coupon for our coupon as this order uses it. Stripe counts a coupon's life in
 * months where we count invoices: one invoice is `once`, all is `forever`, and n invoices
 * is `repeating` for n months — exact for monthly plans, longer than n invoices' worth of
 * discount never for longer plans (the discount ends at the first renewal after n months).
 */
export async function couponFor(
  stripe: Stripe,
  discount: GatewayDiscount,
  currency: string,
  idempotencyKey: string,
): Promise<string> {
  const duration: Stripe.CouponCreateParams =
    discount.periods === null
      ? { duration: 'forever' }
      : discount.periods <= 1
        ? { duration: 'once' }
        : { duration: 'repeating', duration_in_months: discount.periods };
  const amount: Stripe.CouponCreateParams =
    discount.percentOff !== null
      ? { percent_off: discount.percentOff }
      : { amount_off: discount.amountOff ?? 0, currency: stripeCurrency(currency) };
  const coupon = await asking('create a coupon', () =>
    stripe.coupons.create(
      {
        ...duration,
        ...amount,
        name: discount.code.slice(0, 40),
        metadata: { code: discount.code },
      },
      { idempotencyKey: `${idempotencyKey}-coupon` },
    ),
  );
  return coupon.id;
}
