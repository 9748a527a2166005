import { createHash } from 'node:crypto';
import { type GatewayRefund, GatewayRequestError } from '../gateway.ts';
import { type PayPalApi, sdk } from './paypal-client.ts';
import { fromPayPalMoney, toPayPalMoney } from './paypal-money.ts';
import type { RefundLedger } from './refund-ledger.ts';
import { refundedTotal, refundSnapshot } from './snapshots.ts';

/**
 * The PayPal-Request-Id of a refund, so that a retried call (a timeout, a lost answer, a
 * double click) refunds once: PayPal answers a repeated id with the first call's refund.
 *
 * PaymentGateway.refund takes no idempotency key yet, so the id is derived from the call
 * itself: `refund-` and the SHA-256 (hex, 64 characters; PayPal takes up to 108) of
 * `paypal-refund/v1`, the payment's ref, the amount in minor units (`full` when none is
 * given) and the reason (empty when none), joined by newlines: only the reason, the last
 * part, could hold one, so no two calls' parts run together. The same call makes the same
 * id; any other payment, amount or reason a different one. The price: two deliberate
 * refunds of one payment for the same amount and reason, within the time PayPal remembers
 * request ids, are one refund; give the second its own reason.
 */
export function refundRequestId(
  paymentRef: string,
  options: { amount?: number; reason?: string },
): string {
  const parts = [
    'paypal-refund/v1',
    paymentRef,
    options.amount === undefined ? 'full' : String(options.amount),
    options.reason ?? '',
  ];
  return `refund-${createHash('sha256').update(parts.join('\n')).digest('hex')}`;
}

/**
 * Gives back a subscription payment (its transaction id, which PayPal's v2 captures API
 * takes), in full or `amount` of it; PayPal refuses more than is left (422). The total PayPal
 * says is now refunded of it goes in `ledger`, for the invoice's later reads.
 */
export async function refund(
  api: PayPalApi,
  captureId: string,
  options: { amount?: number; reason?: string },
  ledger?: RefundLedger,
): Promise<GatewayRefund> {
  const capture = await sdk('get capture', () => api.payments.getCapturedPayment({ captureId }));
  const { currency } = fromPayPalMoney(capture.amount);
  if (options.amount !== undefined && (!Number.isInteger(options.amount) || options.amount <= 0)) {
    throw new GatewayRequestError('invalid_request', 'A refund is a positive whole amount');
  }
  const given = await sdk('refund capture', () =>
    api.payments.refundCapturedPayment({
      captureId,
      paypalRequestId: refundRequestId(captureId, options),
      prefer: 'return=representation',
      body: {
        ...(options.amount !== undefined
          ? { amount: toPayPalMoney(options.amount, currency) }
          : {}),
        ...(options.reason ? { noteToPayer: options.reason.slice(0, 255) } : {}),
      },
    }),
  );
  const total = refundedTotal(given);
  if (ledger && total !== null) ledger.record(captureId, total);
  return refundSnapshot(given, captureId);
}
