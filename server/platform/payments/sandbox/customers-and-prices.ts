import { createHash } from 'node:crypto';
import type { GatewayCustomerInput, GatewayPrice } from '../gateway.ts';
import type { Books } from './books.ts';
import { SandboxRequestError } from './sandbox-errors.ts';
import type { SandboxPrice, SubscriptionItem } from './sandbox-objects.ts';

// Customers and prices have ids derived from what makes them the same (our user; our
// product at one amount, currency and interval), so asking twice, or twice at once, finds
// the one made first.

function derivedId(prefix: string, parts: unknown[]): string {
  return `${prefix}_${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 24)}`;
}

export async function ensureCustomer(books: Books, input: GatewayCustomerInput): Promise<string> {
  const id = derivedId('cus', ['customer', input.userId]);
  const customer = await books.ensure(
    'customer',
    id,
    { userId: input.userId, email: input.email, name: input.name, defaultCard: null },
    { lock: true },
  );
  if (customer.email !== input.email || customer.name !== input.name) {
    books.change(customer, { email: input.email, name: input.name });
  }
  return customer.id;
}

export async function ensurePrice(books: Books, price: GatewayPrice): Promise<SandboxPrice> {
  if (!Number.isInteger(price.amount) || price.amount < 0) {
    throw new SandboxRequestError('invalid_request', 'A price is a whole number of minor units');
  }
  if (!Number.isInteger(price.intervalCount) || price.intervalCount < 1) {
    throw new SandboxRequestError('invalid_request', 'interval_count must be 1 or more');
  }
  if (!price.onetime && price.interval === null) {
    throw new SandboxRequestError('invalid_request', 'A recurring price needs an interval');
  }
  const currency = price.currency.toUpperCase();
  const id = derivedId('price', [
    price.productId,
    price.amount,
    currency,
    price.interval,
    price.intervalCount,
    price.onetime,
  ]);
  return books.ensure('price', id, {
    productId: price.productId,
    name: price.name,
    amount: price.amount,
    currency,
    interval: price.interval,
    intervalCount: price.intervalCount,
    onetime: price.onetime,
  });
}

/** The subscription items for prices given (made at the sandbox when new). */
export async function itemsFor(
  books: Books,
  prices: GatewayPrice[],
): Promise<{ items: SubscriptionItem[]; plan: SandboxPrice }> {
  if (prices.length === 0) throw new SandboxRequestError('invalid_request', 'No items');
  const found: SandboxPrice[] = [];
  for (const price of prices) found.push(await ensurePrice(books, price));
  const [plan] = found;
  if (!plan) throw new SandboxRequestError('invalid_request', 'No items');
  if (found.some((price) => price.currency !== plan.currency)) {
    throw new SandboxRequestError('invalid_request', 'Every item must be in one currency');
  }
  const items = found.map((price) => ({
    price: price.id,
    productId: price.productId,
    name: price.name,
    amount: price.amount,
    quantity: 1,
  }));
  return { items, plan };
}

/** What one period of the items costs before any discount. */
export function itemsAmount(items: SubscriptionItem[]): number {
  return items.reduce((sum, item) => sum + item.amount * item.quantity, 0);
}
