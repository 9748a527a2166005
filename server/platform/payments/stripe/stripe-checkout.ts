import type Stripe from 'stripe';
import type { StartSubscriptionInput, StartSubscriptionOutcome } from '../gateway.ts';
import { couponFor } from './stripe-catalog.ts';
import { idOf } from './stripe-client.ts';
import { asking, declineOf, gatewayFailure } from './stripe-errors.ts';
import { ONETIME_INTERVAL, ONETIME_INTERVAL_COUNT } from './stripe-onetime.ts';
import { readInvoice, SUBSCRIPTION_EXPAND, snapshotOf } from './stripe-reads.ts';

// The first payment: Stripe's hosted Checkout (no Stripe.js on our pages). Checkout takes
// the card — and Google Pay or Apple Pay, which it shows with cards where the account has
// them on — starts the subscription and sends the customer back; its webhooks tell us.

/** Checkout replaces `{CHECKOUT_SESSION_ID}` itself: the braces must stay as they are. */
export function withSessionId(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`;
}

export async function startSubscription(
  stripe: Stripe,
  input: StartSubscriptionInput,
): Promise<StartSubscriptionOutcome> {
  const [plan] = input.items;
  if (!plan) throw new Error('an order has a plan');
  const prices = input.items.map((item) => {
    if (!item.ref) throw new Error(`product ${item.productId} has no Stripe price yet`);
    return item.ref;
  });
  const coupon = input.discount
    ? await couponFor(stripe, input.discount, plan.currency, input.idempotencyKey)
    : null;
  if (input.paymentMethodRef && !plan.onetime) {
    return withSavedCard(stripe, input, prices, coupon, input.paymentMethodRef);
  }
  const mode = plan.onetime ? 'payment' : 'subscription';
  // A one-time purchase: the period bought travels on the session and its invoice, from
  // which our one-time subscription is made once it is paid (stripe-onetime.ts).
  const metadata =
    mode === 'payment' && plan.interval
      ? {
          ...input.metadata,
          [ONETIME_INTERVAL]: plan.interval,
          [ONETIME_INTERVAL_COUNT]: String(plan.intervalCount),
        }
      : input.metadata;
  const session = await asking('start a Checkout Session', () =>
    stripe.checkout.sessions.create(
      {
        mode,
        customer: input.customerRef,
        client_reference_id: input.metadata.userId,
        line_items: prices.map((price) => ({ price, quantity: 1 })),
        ...(coupon ? { discounts: [{ coupon }] } : {}),
        allowed_payment_method_types: ['card'],
        success_url: withSessionId(input.returnUrl),
        cancel_url: input.cancelUrl,
        metadata,
        ...(mode === 'subscription'
          ? { subscription_data: { metadata } }
          : { invoice_creation: { enabled: true, invoice_data: { metadata } } }),
      },
      { idempotencyKey: `${input.idempotencyKey}-session` },
    ),
  );
  if (!session.url) throw new Error('Stripe answered a Checkout Session without its URL');
  return { kind: 'redirect', url: session.url, subscription: null };
}

/** A saved card: the subscription is made and charged at once, no page to visit. */
async function withSavedCard(
  stripe: Stripe,
  input: StartSubscriptionInput,
  prices: string[],
  coupon: string | null,
  card: string,
): Promise<StartSubscriptionOutcome> {
  let created: Stripe.Subscription;
  try {
    created = await stripe.subscriptions.create(
      {
        customer: input.customerRef,
        items: prices.map((price) => ({ price, quantity: 1 })),
        default_payment_method: card,
        ...(coupon ? { discounts: [{ coupon }] } : {}),
        metadata: input.metadata,
        // A refused card makes no subscription at all (nothing to clean up, no dunning).
        payment_behavior: 'error_if_incomplete',
        expand: SUBSCRIPTION_EXPAND,
      },
      { idempotencyKey: `${input.idempotencyKey}-subscription` },
    );
  } catch (error) {
    const decline = declineOf(error);
    if (decline) return { kind: 'declined', decline };
    throw gatewayFailure(error, 'start a subscription');
  }
  const subscription = await snapshotOf(stripe, created);
  const latest = idOf(created.latest_invoice);
  const invoice = latest ? await readInvoice(stripe, latest) : null;
  if (!invoice) throw new Error(`Stripe's subscription ${created.id} has no first invoice`);
  if (invoice.raw.status !== 'paid' && invoice.raw.hosted_invoice_url) {
    return { kind: 'redirect', url: invoice.raw.hosted_invoice_url, subscription };
  }
  return { kind: 'completed', subscription, invoice: invoice.invoice };
}

/**
 * A Checkout Session in setup mode: Stripe's page takes a new card for the customer and
 * sends them back; its webhooks (payment_method.attached) bring the card to our books.
 * Answers the page's URL.
 */
export async function startCardSetup(
  stripe: Stripe,
  input: { customerRef: string; returnUrl: string; cancelUrl: string; idempotencyKey: string },
): Promise<string> {
  const session = await asking('start a card setup', () =>
    stripe.checkout.sessions.create(
      {
        mode: 'setup',
        customer: input.customerRef,
        allowed_payment_method_types: ['card'],
        success_url: withSessionId(input.returnUrl),
        cancel_url: input.cancelUrl,
      },
      { idempotencyKey: `${input.idempotencyKey}-setup` },
    ),
  );
  if (!session.url) throw new Error('Stripe answered a Checkout Session without its URL');
  return session.url;
}
