import { createHash } from 'node:crypto';

/**
 * A refund's idempotency key at its provider (Stripe's Idempotency-Key, PayPal's
 * PayPal-Request-Id), so that a retried call (a timeout, a lost answer, a double click)
 * refunds once: the provider answers a repeated key with the first call's refund.
 *
 * PaymentGateway.refund takes no key, so it is derived from the call itself: `refund-` and
 * the SHA-256 (hex, 64 characters) of `{provider}-refund/v1`, the payment's ref, the amount
 * in minor units (`full` when none is given) and the reason (empty when none), joined by
 * newlines: only the reason, the last part, could hold one, so no two calls' parts run
 * together. The same call makes the same key; any other payment, amount or reason another.
 * The price: two deliberate refunds of one payment for the same amount and reason, within
 * the time the provider remembers keys, are one refund; callers number their reasons
 * (staff refunds say "#2" for a payment's second).
 */
export function refundKey(
  provider: 'stripe' | 'paypal',
  paymentRef: string,
  options: { amount?: number; reason?: string },
): string {
  const parts = [
    `${provider}-refund/v1`,
    paymentRef,
    options.amount === undefined ? 'full' : String(options.amount),
    options.reason ?? '',
  ];
  return `refund-${createHash('sha256').update(parts.join('\n')).digest('hex')}`;
}
