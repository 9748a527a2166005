import type Stripe from 'stripe';
import { type GatewayEvent, WebhookRejected } from '../gateway.ts';
import { readCard } from './stripe-cards.ts';
import { idOf } from './stripe-client.ts';
import { asking } from './stripe-errors.ts';
import { readInvoiceSnapshots } from './stripe-onetime.ts';
import { invoiceOfPayment, readSubscription } from './stripe-reads.ts';
import { refundSnapshot, subscriptionRefOf } from './stripe-snapshots.ts';

// Stripe's webhooks: the signature is checked by the SDK over the raw bytes (a wrong,
// tampered or older than five minutes one is refused), then the objects the event concerns
// are read back from Stripe's API, so what we apply is Stripe's state now, not the event's
// copy of it: late or repeated events converge to the same books.

type Snapshots = Omit<GatewayEvent, 'ref' | 'type' | 'occurredAt' | 'payload'>;

/** Billing's time, by which a one-time purchase has run out or not. */
type Clock = () => Date;

async function invoiceAndSubscription(
  stripe: Stripe,
  invoiceRef: string,
  now: Clock,
): Promise<Snapshots> {
  const read = await readInvoiceSnapshots(stripe, invoiceRef, now());
  if (!read) return {};
  // A one-time purchase's invoice gives its subscription too; another's names it.
  const subscriptionRef = read.subscription ? null : subscriptionRefOf(read.raw);
  const subscription =
    read.subscription ?? (subscriptionRef ? await readSubscription(stripe, subscriptionRef) : null);
  return {
    ...(subscription ? { subscription } : {}),
    invoice: read.invoice,
    ...(read.payment ? { payment: read.payment } : {}),
  };
}

async function checkoutCompleted(
  stripe: Stripe,
  sessionRef: string,
  now: Clock,
): Promise<Snapshots> {
  const session = await asking('read a Checkout Session', () =>
    stripe.checkout.sessions.retrieve(sessionRef),
  );
  if (session.mode === 'setup') {
    const intentRef = idOf(session.setup_intent);
    if (!intentRef) return {};
    const intent = await asking('read a setup', () => stripe.setupIntents.retrieve(intentRef));
    const cardRef = idOf(intent.payment_method);
    const card = cardRef ? await readCard(stripe, cardRef) : null;
    return card ? { card } : {};
  }
  const subscriptionRef = idOf(session.subscription);
  const invoiceRef = idOf(session.invoice);
  if (invoiceRef) {
    // Payment mode (a one-time purchase): its paid invoice makes the subscription.
    const found = await invoiceAndSubscription(stripe, invoiceRef, now);
    if (found.subscription || !subscriptionRef) return found;
  }
  const subscription = subscriptionRef ? await readSubscription(stripe, subscriptionRef) : null;
  return subscription ? { subscription } : {};
}

async function refunded(stripe: Stripe, refundRef: string, now: Clock): Promise<Snapshots> {
  const refund = await asking('read a refund', () => stripe.refunds.retrieve(refundRef));
  const paymentRef = idOf(refund.payment_intent);
  const invoiceRef = paymentRef ? await invoiceOfPayment(stripe, paymentRef) : null;
  if (!invoiceRef) return {};
  return {
    ...(await invoiceAndSubscription(stripe, invoiceRef, now)),
    refund: refundSnapshot(refund, invoiceRef),
  };
}

/** The snapshots an event's objects give now; none for events we take no interest in. */
async function readBack(stripe: Stripe, event: Stripe.Event, now: Clock): Promise<Snapshots> {
  const object = event.data.object as { id?: string; object?: string };
  const id = object.id ?? '';
  if (event.type.startsWith('customer.subscription.')) {
    const subscription = await readSubscription(stripe, id);
    return subscription ? { subscription } : {};
  }
  if (object.object === 'invoice') return invoiceAndSubscription(stripe, id, now);
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.async_payment_failed':
      return checkoutCompleted(stripe, id, now);
    case 'refund.created':
    case 'refund.updated':
    case 'charge.refund.updated':
      return refunded(stripe, id, now);
    case 'charge.refunded': {
      const paymentRef = idOf((event.data.object as Stripe.Charge).payment_intent);
      const invoiceRef = paymentRef ? await invoiceOfPayment(stripe, paymentRef) : null;
      return invoiceRef ? invoiceAndSubscription(stripe, invoiceRef, now) : {};
    }
    case 'payment_method.attached':
    case 'payment_method.updated':
    case 'payment_method.automatically_updated':
    case 'payment_method.detached': {
      const card = await readCard(stripe, id);
      return card ? { card } : { deletedCardRef: id };
    }
    case 'customer.updated': {
      const customer = event.data.object as Stripe.Customer;
      const defaultRef = idOf(customer.invoice_settings?.default_payment_method);
      const card = defaultRef ? await readCard(stripe, defaultRef) : null;
      return card ? { card } : {};
    }
    default:
      return {};
  }
}

export async function verifyStripeWebhook(
  stripe: Stripe,
  secret: string,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
  now: Clock = () => new Date(),
): Promise<GatewayEvent[]> {
  const signature = headers['stripe-signature'];
  if (typeof signature !== 'string' || signature === '') {
    throw new WebhookRejected('no Stripe-Signature header');
  }
  let event: Stripe.Event;
  try {
    event = await stripe.webhooks.constructEventAsync(rawBody, signature, secret);
  } catch (error) {
    throw new WebhookRejected(
      `Stripe signature refused: ${error instanceof Error ? error.message : 'invalid'}`,
    );
  }
  // Failures here are ours or Stripe's (GatewayUnavailable): the route answers 5xx and
  // Stripe sends the event again.
  const snapshots = await readBack(stripe, event, now);
  return [
    {
      ref: event.id,
      type: event.type,
      occurredAt: new Date(event.created * 1000),
      ...snapshots,
      payload: event,
    },
  ];
}
