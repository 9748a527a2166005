import { type GatewayRefund, GatewayRequestError } from '../gateway.ts';
import { refundKey } from '../refund-key.ts';
import { type PayPalApi, sdk } from './paypal-client.ts';
import { fromPayPalMoney, toPayPalMoney } from './paypal-money.ts';
import type { RefundLedger } from './refund-ledger.ts';
import { refundedTotal, refundSnapshot } from './snapshots.ts';

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
      paypalRequestId: refundKey('paypal', captureId, options),
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
