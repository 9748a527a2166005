import { createHash } from 'node:crypto';
import {
  type GatewayDiscount,
  type GatewayPrice,
  GatewayRequestError,
  type StartSubscriptionInput,
} from '../gateway.ts';
import { decimalAmount, NOTE_LIMIT, type OrderNote } from './cryptomus-objects.ts';

// One order, one Cryptomus invoice (doc "Creating an invoice", POST /v1/payment). Its
// order_id comes from our idempotency key: Cryptomus answers an existing invoice for an
// order_id it already has instead of making another, so a second click pays once.

/** How long the customer has to pay, in seconds (Cryptomus allows 300 to 43 200). */
export const INVOICE_LIFETIME_SECONDS = 3600;

/** Cryptomus's order_id: 1–128 letters, digits, `-` and `_`; our keys hold `:`. */
export function orderIdFor(idempotencyKey: string): string {
  return `vpn-${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 40)}`;
}

/** Cryptomus has no subscriptions: only a product bought once, for a period, is sold. */
export function assertOneTime(price: GatewayPrice): void {
  if (!price.onetime || !price.interval) {
    throw new GatewayRequestError(
      'invalid_request',
      `Cryptomus sells one-time purchases only; product ${price.productId} renews`,
    );
  }
}

function discountOf(subtotal: number, discount: GatewayDiscount | null): number {
  if (!discount || discount.periods === 0) return 0;
  const off =
    discount.percentOff != null
      ? Math.round((subtotal * discount.percentOff) / 100)
      : (discount.amountOff ?? 0);
  return Math.min(Math.max(off, 0), subtotal);
}

/** The order note, names shortened until it fits Cryptomus's 255 characters. */
function noteText(input: StartSubscriptionInput, plan: GatewayPrice & { interval: string }) {
  const userId = input.metadata.userId ?? input.customerRef.replace(/^user-/, '');
  for (const nameLength of [40, 16, 0]) {
    const note: OrderNote = {
      u: userId,
      ...(input.metadata.kind ? { k: input.metadata.kind.slice(0, 20) } : {}),
      i: plan.interval as OrderNote['i'],
      n: plan.intervalCount,
      d: input.discount?.code.slice(0, 40) ?? null,
      l: input.items.map((item) => [item.productId, item.amount, item.name.slice(0, nameLength)]),
    };
    const text = JSON.stringify(note);
    if (text.length <= NOTE_LIMIT) return text;
  }
  throw new GatewayRequestError('invalid_request', 'too many products for one Cryptomus invoice');
}

/** The body of POST /v1/payment for an order. */
export function invoiceRequest(input: StartSubscriptionInput, callbackUrl: string) {
  const [plan] = input.items;
  if (!plan) throw new GatewayRequestError('invalid_request', 'an order needs a plan');
  for (const item of input.items) assertOneTime(item);
  if (input.items.some((item) => item.currency !== plan.currency)) {
    throw new GatewayRequestError('invalid_request', 'one invoice has one currency');
  }
  const subtotal = input.items.reduce((sum, item) => sum + item.amount, 0);
  const total = subtotal - discountOf(subtotal, input.discount);
  if (total <= 0) throw new GatewayRequestError('invalid_request', 'nothing to pay');
  return {
    amount: decimalAmount(total),
    currency: plan.currency,
    order_id: orderIdFor(input.idempotencyKey),
    url_return: input.cancelUrl,
    url_success: input.returnUrl,
    url_callback: callbackUrl,
    lifetime: INVOICE_LIFETIME_SECONDS,
    additional_data: noteText(input, plan as GatewayPrice & { interval: string }),
  };
}
