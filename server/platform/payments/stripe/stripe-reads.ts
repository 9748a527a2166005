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
//
// A read is dated when it is sent, an update's answer when it comes back: Stripe's state lies
// between the two, so a read that went out before our change can never outrank the change's
// answer, however late its own answer arrives (the newer snapshot wins, `updatedAt`).

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
  const sentAt = new Date();
  const raw = await askingOrNull('read an invoice', () =>
    stripe.invoices.retrieve(ref, { expand: INVOICE_EXPAND }),
  );
  if (!raw) return null;
  return invoiceRead(raw, sentAt);
}

export function invoiceRead(raw: Stripe.Invoice, readAt = new Date()): InvoiceRead {
  return { raw, invoice: invoiceSnapshot(raw, readAt), payment: paymentSnapshot(raw) };
}

/** A subscription as read (or as an update answered it), with what its status needs. */
export async function snapshotOf(
  stripe: Stripe,
  subscription: Stripe.Subscription,
  readAt = new Date(),
): Promise<GatewaySubscription> {
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
  const sentAt = new Date();
  const raw = await askingOrNull('read a subscription', () =>
    stripe.subscriptions.retrieve(ref, { expand: SUBSCRIPTION_EXPAND }),
  );
  return raw && snapshotOf(stripe, raw, sentAt);
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
