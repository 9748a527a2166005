import type Stripe from 'stripe';
import type { GatewayInvoice, GatewayPayment, GatewaySubscription } from '../gateway.ts';
import { idOf } from './stripe-client.ts';
import { asking, askingOrNull } from './stripe-errors.ts';
import {
  amountRefunded,
  intentsOf,
  invoiceSnapshot,
  paymentSnapshot,
  subscriptionSnapshot,
} from './stripe-snapshots.ts';

// Fresh reads of Stripe's objects, expanded as the snapshots need them: a subscription with
// its coupons, an invoice with its payments' intents and charges (refunds, failures).

export const SUBSCRIPTION_EXPAND = ['discounts.source.coupon'];
export const INVOICE_EXPAND = [
  'payments.data.payment.payment_intent.latest_charge',
  'discounts.source.coupon',
];

export interface InvoiceRead {
  raw: Stripe.Invoice;
  invoice: GatewayInvoice;
  payment: GatewayPayment | null;
}

export async function readInvoice(stripe: Stripe, ref: string): Promise<InvoiceRead | null> {
  const raw = await askingOrNull('read an invoice', () =>
    stripe.invoices.retrieve(ref, { expand: INVOICE_EXPAND }),
  );
  if (!raw) return null;
  return invoiceRead(raw);
}

export function invoiceRead(raw: Stripe.Invoice): InvoiceRead {
  const readAt = new Date();
  return { raw, invoice: invoiceSnapshot(raw, readAt), payment: paymentSnapshot(raw) };
}

/** A subscription as read (or as an update answered it), with what its status needs. */
export async function snapshotOf(
  stripe: Stripe,
  subscription: Stripe.Subscription,
): Promise<GatewaySubscription> {
  const readAt = new Date();
  let refunded = false;
  const latest = idOf(subscription.latest_invoice);
  // §4 refunded: ended and its last payment given back in full.
  if (subscription.status === 'canceled' && latest) {
    const invoice = await readInvoice(stripe, latest);
    const paid = invoice
      ? intentsOf(invoice.raw).some((intent) => intent.status === 'succeeded')
      : false;
    refunded = Boolean(
      invoice &&
        paid &&
        invoice.raw.amount_paid > 0 &&
        amountRefunded(invoice.raw) >= invoice.raw.amount_paid,
    );
  }
  return subscriptionSnapshot(subscription, { refunded, readAt });
}

export async function readSubscription(
  stripe: Stripe,
  ref: string,
): Promise<GatewaySubscription | null> {
  const raw = await askingOrNull('read a subscription', () =>
    stripe.subscriptions.retrieve(ref, { expand: SUBSCRIPTION_EXPAND }),
  );
  return raw && snapshotOf(stripe, raw);
}

/** The invoice a payment intent paid (Stripe links them through invoice payments). */
export async function invoiceOfPayment(
  stripe: Stripe,
  paymentIntent: string,
): Promise<string | null> {
  const found = await asking('find the invoice of a payment', () =>
    stripe.invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: paymentIntent },
      limit: 1,
    }),
  );
  return idOf(found.data[0]?.invoice);
}
