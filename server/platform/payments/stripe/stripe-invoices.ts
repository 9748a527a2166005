import type Stripe from 'stripe';
import { type GatewayRefund, GatewayRequestError, type PayOutcome } from '../gateway.ts';
import { refundKey } from '../refund-key.ts';
import { asking, declineOf, gatewayFailure, isStripeError } from './stripe-errors.ts';
import { invoiceOfPayment, readInvoice } from './stripe-reads.ts';
import { refundSnapshot } from './stripe-snapshots.ts';

const REFUND_REASONS = new Set(['duplicate', 'fraudulent', 'requested_by_customer']);

/** Collects an open invoice now, from the card named or the subscription's default. */
export async function payInvoice(
  stripe: Stripe,
  ref: string,
  options: { paymentMethodRef?: string | null; idempotencyKey: string },
): Promise<PayOutcome> {
  try {
    await stripe.invoices.pay(
      ref,
      options.paymentMethodRef ? { payment_method: options.paymentMethodRef } : {},
      { idempotencyKey: options.idempotencyKey },
    );
  } catch (error) {
    const decline = declineOf(error);
    const requiresAction =
      isStripeError(error) && error.code === 'invoice_payment_intent_requires_action';
    if (!decline && !requiresAction) throw gatewayFailure(error, 'pay an invoice');
    const read = await readInvoice(stripe, ref);
    if (!read) throw new GatewayRequestError('not_found', `No such invoice: ${ref}`);
    if (requiresAction && read.raw.hosted_invoice_url) {
      return { kind: 'redirect', url: read.raw.hosted_invoice_url };
    }
    return {
      kind: 'declined',
      decline: decline ?? { code: 'authentication_required', message: 'The bank asks to confirm.' },
      invoice: read.invoice,
    };
  }
  const read = await readInvoice(stripe, ref);
  if (!read) throw new GatewayRequestError('not_found', `No such invoice: ${ref}`);
  return { kind: 'paid', invoice: read.invoice };
}

/** Gives back a payment (a PaymentIntent) in full or `amount` of it. */
export async function refund(
  stripe: Stripe,
  paymentRef: string,
  options: { amount?: number; reason?: string },
): Promise<GatewayRefund> {
  const reason = options.reason && REFUND_REASONS.has(options.reason) ? options.reason : undefined;
  const created = await asking('refund a payment', () =>
    stripe.refunds.create(
      {
        payment_intent: paymentRef,
        ...(options.amount !== undefined ? { amount: options.amount } : {}),
        ...(reason ? { reason: reason as Stripe.RefundCreateParams.Reason } : {}),
        // Stripe's reasons are three words; ours is free text, kept beside them.
        ...(options.reason ? { metadata: { reason: options.reason.slice(0, 500) } } : {}),
      },
      // A retried call (a lost answer, staff trying again) gives back the money once.
      { idempotencyKey: refundKey('stripe', paymentRef, options) },
    ),
  );
  const invoiceRef = (await invoiceOfPayment(stripe, paymentRef)) ?? '';
  return refundSnapshot(created, invoiceRef);
}
