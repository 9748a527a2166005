import type { GatewayRefund } from '../gateway.ts';
import { inBooks } from './books.ts';
import { lockPayment } from './locks.ts';
import type { SandboxContext } from './sandbox-context.ts';
import { SandboxRequestError } from './sandbox-errors.ts';
import { refundSnapshot } from './snapshots.ts';
import { fullyRefunded } from './subscription-actions.ts';

/** Gives back all of a payment, or `amount` of it; never more than is left of it. */
export function refund(
  context: SandboxContext,
  paymentRef: string,
  options: { amount?: number; reason?: string },
): Promise<GatewayRefund> {
  return inBooks(context, async (books) => {
    const { subscription, invoice, payment } = await lockPayment(books, paymentRef);
    if (payment.status !== 'succeeded') {
      throw new SandboxRequestError('invalid_state', `Payment ${payment.id} is ${payment.status}`);
    }
    const left = payment.amount - payment.amountRefunded;
    const amount = options.amount ?? left;
    if (!Number.isInteger(amount) || amount <= 0) {
      throw new SandboxRequestError('invalid_request', 'A refund is a positive whole amount');
    }
    if (amount > left) {
      throw new SandboxRequestError(
        'refund_too_large',
        `Refund of ${amount} is more than the ${left} left of payment ${payment.id}`,
      );
    }
    const created = books.create('refund', {
      payment: payment.id,
      invoice: invoice.id,
      amount,
      currency: payment.currency,
      reason: options.reason ?? null,
    });
    books.change(payment, { amountRefunded: payment.amountRefunded + amount });
    books.change(invoice, { amountRefunded: invoice.amountRefunded + amount });
    books.emit('refund.created', {
      subscription: subscription ?? undefined,
      invoice,
      payment,
      refund: created,
    });
    // Ended at once and now given back in full: §4 refunded.
    if (
      subscription &&
      subscription.status === 'ended' &&
      subscription.endReason === 'canceled' &&
      subscription.latestPaidInvoice === invoice.id &&
      !subscription.refunded &&
      fullyRefunded(invoice)
    ) {
      books.change(subscription, { refunded: true });
      books.emit('customer.subscription.updated', { subscription });
    }
    return refundSnapshot(created);
  });
}
