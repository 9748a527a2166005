import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MONTHLY,
  ONE_MONTH_ONCE,
  openStripe,
  type StripeKit,
  sdkFor,
  sessionIdOf,
  YEARLY,
} from '../../../test/stripe-standin/stripe-kit.ts';
import { startStripeStandin } from '../../../test/stripe-standin/stripe-standin.ts';
import { GatewayRequestError, GatewayUnavailable } from '../gateway.ts';
import { createStripeGateway } from './stripe-gateway.ts';

// The gateway through the official SDK over real HTTP to the stand-in: every call the
// adapter makes, and what it makes of Stripe's answers.

let kit: StripeKit;
let user = 0;
const prices = { monthly: '', yearly: '', once: '' };
const DAY_MS = 86_400_000;
/** Billing's time runs this far ahead of the wall clock (one-time purchases run out by it). */
let later = 0;

beforeAll(async () => {
  kit = await openStripe({ now: () => new Date(Date.now() + later) });
  prices.monthly = await kit.gateway.ensurePrice(MONTHLY);
  prices.yearly = await kit.gateway.ensurePrice(YEARLY);
  prices.once = await kit.gateway.ensurePrice(ONE_MONTH_ONCE);
});
afterAll(() => kit.close());

async function customer() {
  user += 1;
  return kit.gateway.ensureCustomer({ userId: user, email: `s${user}@example.com`, name: 'S' });
}

/** A subscription started on a saved card (no Checkout page). */
async function subscribed(card = '4242424242424242') {
  const customerRef = await customer();
  const token = await kit.cardToken(card);
  const added = await kit.gateway.cards?.add(customerRef, token, { makeDefault: true });
  if (added?.kind !== 'added') throw new Error('card refused');
  const outcome = await kit.gateway.startSubscription({
    customerRef,
    items: [{ ...MONTHLY, ref: prices.monthly }],
    discount: null,
    paymentToken: null,
    paymentMethodRef: added.card.ref,
    returnUrl: 'http://app.test/en/order-received/thanks',
    cancelUrl: 'http://app.test/en/order-v2',
    idempotencyKey: `saved-${user}`,
    metadata: { userId: String(user) },
  });
  if (outcome.kind !== 'completed') throw new Error(`not completed: ${outcome.kind}`);
  return { customerRef, card: added.card.ref, ...outcome };
}

describe('customers and prices', () => {
  it('makes one customer per user, with our user id on it', async () => {
    const input = { userId: 9001, email: 'same@example.com', name: 'Same' };
    const first = await kit.gateway.ensureCustomer(input);
    expect(await kit.gateway.ensureCustomer(input)).toBe(first);
    const held = await kit.stripe.customers.retrieve(first);
    expect(held).toMatchObject({ email: 'same@example.com', metadata: { userId: '9001' } });
  });

  it('keeps a price that still says the same, and makes a new one when it does not', async () => {
    expect(await kit.gateway.ensurePrice({ ...MONTHLY, ref: prices.monthly })).toBe(prices.monthly);
    const dearer = await kit.gateway.ensurePrice({ ...MONTHLY, ref: prices.monthly, amount: 1499 });
    expect(dearer).not.toBe(prices.monthly);
    const price = await kit.stripe.prices.retrieve(dearer);
    expect(price).toMatchObject({
      unit_amount: 1499,
      currency: 'usd',
      recurring: { interval: 'month', interval_count: 1 },
      metadata: { productId: '41' },
    });
    const once = await kit.gateway.ensurePrice({ ...MONTHLY, onetime: true });
    expect((await kit.stripe.prices.retrieve(once)).recurring).toBeNull();
  });
});

describe('the first payment on hosted Checkout', () => {
  it('answers Checkout’s URL; paying there starts the subscription with its coupon', async () => {
    const customerRef = await customer();
    const outcome = await kit.gateway.startSubscription({
      customerRef,
      items: [{ ...MONTHLY, ref: prices.monthly }],
      discount: { code: 'WELCOME20', percentOff: 20, amountOff: null, periods: 1 },
      paymentToken: null,
      paymentMethodRef: null,
      returnUrl: 'http://app.test/en/order-received/thanks',
      cancelUrl: 'http://app.test/en/order-v2?plan=41',
      idempotencyKey: `checkout-${user}`,
      metadata: { userId: String(user), kind: 'new' },
    });
    expect(outcome).toMatchObject({ kind: 'redirect', subscription: null });
    if (outcome.kind !== 'redirect') return;
    expect(outcome.url.startsWith(kit.standin.url)).toBe(true);
    const page = await fetch(outcome.url);
    expect(await page.text()).toContain('<button type="submit">Pay</button>');

    const sessionId = sessionIdOf(outcome.url);
    const paid = await kit.standin.payCheckout(sessionId);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(
      `http://app.test/en/order-received/thanks?session_id=${sessionId}`,
    );
    const session = await kit.stripe.checkout.sessions.retrieve(sessionId);
    expect(session).toMatchObject({ status: 'complete', mode: 'subscription' });
    expect(session.allowed_payment_method_types).toEqual(['card']);
    const subscription = await kit.gateway.fetchSubscription(String(session.subscription));
    expect(subscription).toMatchObject({
      status: 'active',
      customerRef,
      currency: 'USD',
      items: [{ priceRef: prices.monthly, productId: 41, quantity: 1, amount: 1299 }],
      metadata: { userId: String(user), kind: 'new' },
      cancelAtPeriodEnd: false,
    });
    const days =
      (Number(subscription?.currentPeriodEnd) - Number(subscription?.currentPeriodStart)) /
      86_400_000;
    expect(days).toBeGreaterThanOrEqual(28);
    expect(days).toBeLessThanOrEqual(31);
    const invoice = await kit.gateway.fetchInvoice(String(session.invoice));
    expect(invoice).toMatchObject({
      status: 'paid',
      subtotal: 1299,
      discount: 260,
      total: 1039,
      amountPaid: 1039,
      discountCode: 'WELCOME20',
      reason: 'subscription_create',
    });
  });

  it('shows a declined card on the page and starts nothing', async () => {
    const customerRef = await customer();
    const outcome = await kit.gateway.startSubscription({
      customerRef,
      items: [{ ...MONTHLY, ref: prices.monthly }],
      discount: null,
      paymentToken: null,
      paymentMethodRef: null,
      returnUrl: 'http://app.test/thanks',
      cancelUrl: 'http://app.test/order',
      idempotencyKey: `declined-${user}`,
      metadata: { userId: String(user) },
    });
    if (outcome.kind !== 'redirect') throw new Error('a redirect');
    const sessionId = sessionIdOf(outcome.url);
    const answer = await kit.standin.payCheckout(sessionId, '4000000000000002');
    expect(answer.status).toBe(402);
    expect(await answer.text()).toContain('Your card was declined.');
    expect((await kit.stripe.checkout.sessions.retrieve(sessionId)).status).toBe('open');
    const subscriptions = await kit.stripe.subscriptions.list({
      customer: customerRef,
      status: 'all',
    });
    expect(subscriptions.data).toEqual([]);
  });
});

/** A one-time month bought on Checkout in payment mode: the event its completion makes. */
async function boughtOnce(card = '4242424242424242') {
  const customerRef = await customer();
  const outcome = await kit.gateway.startSubscription({
    customerRef,
    items: [{ ...ONE_MONTH_ONCE, ref: prices.once }],
    discount: null,
    paymentToken: null,
    paymentMethodRef: null,
    returnUrl: 'http://app.test/en/order-received/thanks',
    cancelUrl: 'http://app.test/en/order-v2?plan=43',
    idempotencyKey: `once-${user}`,
    metadata: { userId: String(user), kind: 'new' },
  });
  if (outcome.kind !== 'redirect') throw new Error('a redirect');
  expect(outcome.subscription).toBeNull();
  const sessionId = sessionIdOf(outcome.url);
  const paid = await kit.standin.payCheckout(sessionId, card);
  const session = await kit.stripe.checkout.sessions.retrieve(sessionId);
  const completed = kit.standin.webhooks.events.find(
    (event) =>
      event.type === 'checkout.session.completed' &&
      (event.data.object as { id: string }).id === sessionId,
  );
  return { customerRef, paid, session, completed };
}

/** An event as our webhook route gets it, through the gateway's check and read-back. */
async function verified(event: unknown) {
  const body = JSON.stringify(event);
  const [verifiedEvent] = await kit.gateway.verifyWebhook(Buffer.from(body), {
    'stripe-signature': kit.standin.webhooks.sign(body),
  });
  return verifiedEvent;
}

describe('a one-time purchase on Checkout in payment mode', () => {
  it('makes a one-time subscription of the paid Checkout, with its invoice and payment', async () => {
    const before = Date.now();
    const { customerRef, paid, session, completed } = await boughtOnce();
    expect(paid.status).toBe(303);
    expect(session).toMatchObject({
      mode: 'payment',
      status: 'complete',
      payment_status: 'paid',
      metadata: { onetime_interval: 'month', onetime_interval_count: '1' },
    });
    const paymentRef = String(session.payment_intent);
    expect(paymentRef).toMatch(/^pi_/);
    expect(session.subscription).toBeNull();

    const event = await verified(completed);
    expect(event?.type).toBe('checkout.session.completed');
    const subscription = event?.subscription;
    expect(subscription).toMatchObject({
      ref: paymentRef,
      customerRef,
      status: 'active',
      onetime: true,
      paymentMethodType: 'card',
      currency: 'USD',
      items: [{ priceRef: prices.once, productId: 43, quantity: 1, amount: 1499 }],
      cancelAtPeriodEnd: false,
      canceledAt: null,
      endedAt: null,
      metadata: { userId: String(user), kind: 'new' },
      latestInvoiceRef: String(session.invoice),
    });
    expect(subscription?.paymentMethodRef).toMatch(/^pm_/);
    const start = subscription?.currentPeriodStart ?? new Date(0);
    expect(start.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    const end = new Date(start);
    end.setUTCMonth(end.getUTCMonth() + 1);
    expect(subscription?.currentPeriodEnd?.getTime()).toBe(end.getTime());
    expect(event?.invoice).toMatchObject({
      ref: String(session.invoice),
      customerRef,
      subscriptionRef: paymentRef,
      status: 'paid',
      reason: 'subscription_create',
      total: 1499,
      amountPaid: 1499,
      periodStart: start,
      periodEnd: end,
      lines: [{ productId: 43, amount: 1499, periodStart: start, periodEnd: end }],
    });
    expect(event?.payment).toMatchObject({
      ref: paymentRef,
      invoiceRef: String(session.invoice),
      status: 'succeeded',
      amount: 1499,
    });

    // Read back by its ref, and by its invoice (the invoice's own events give both).
    const { updatedAt: _at, ...fetched } = (await kit.gateway.fetchSubscription(paymentRef)) ?? {};
    const { updatedAt: _then, ...sent } = subscription ?? {};
    expect(fetched).toEqual(sent);
    expect(await kit.gateway.fetchInvoice(String(session.invoice))).toMatchObject({
      subscriptionRef: paymentRef,
      periodEnd: end,
    });
    const paidEvent = kit.standin.webhooks.events.find(
      (seen) =>
        seen.type === 'invoice.paid' &&
        (seen.data.object as { id: string }).id === String(session.invoice),
    );
    expect((await verified(paidEvent))?.subscription).toMatchObject({
      ref: paymentRef,
      status: 'active',
    });
  });

  it('cancels at period end and resumes as a note only; refuses what it cannot do', async () => {
    const { session } = await boughtOnce();
    const ref = String(session.payment_intent);
    const canceled = await kit.gateway.cancel(ref, { atPeriodEnd: true });
    expect(canceled).toMatchObject({ ref, status: 'canceled', cancelAtPeriodEnd: true });
    expect(canceled.canceledAt).toBeInstanceOf(Date);
    // Stripe keeps it: a later read, or the invoice's event, says the same.
    expect(await kit.gateway.fetchSubscription(ref)).toMatchObject({
      status: 'canceled',
      cancelAtPeriodEnd: true,
    });
    const updated = kit.standin.webhooks.events.findLast((seen) => seen.type === 'invoice.updated');
    expect((await verified(updated))?.subscription).toMatchObject({
      ref,
      status: 'canceled',
      cancelAtPeriodEnd: true,
    });
    expect(await kit.gateway.cancel(ref, { atPeriodEnd: true })).toMatchObject({
      status: 'canceled',
    });
    const resumed = await kit.gateway.resume(ref);
    expect(resumed).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, canceledAt: null });
    expect((await kit.gateway.fetchSubscription(ref))?.status).toBe('active');

    const items = [{ ...YEARLY, ref: prices.yearly }];
    const refusals = [
      () => kit.gateway.cancel(ref, { atPeriodEnd: false }),
      () => kit.gateway.pause(ref),
      () => kit.gateway.unpause(ref),
      () => kit.gateway.endForNonPayment(ref),
      () => kit.gateway.changePlan({ subscriptionRef: ref, items, idempotencyKey: `c-${user}` }),
      () => kit.gateway.previewChange({ subscriptionRef: ref, items, idempotencyKey: `p-${user}` }),
    ];
    for (const refusal of refusals) {
      const error = await refusal().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(GatewayRequestError);
      expect(error).toMatchObject({ kind: 'invalid_state' });
    }
    expect(await kit.gateway.fetchSubscription('pi_missing')).toBeNull();
  });

  it('refunds its payment; refunded in full it is §4 refunded', async () => {
    const { session } = await boughtOnce();
    const ref = String(session.payment_intent);
    const part = await kit.gateway.refund(ref, { amount: 500 });
    expect(part).toMatchObject({
      paymentRef: ref,
      invoiceRef: String(session.invoice),
      amount: 500,
    });
    expect((await kit.gateway.fetchSubscription(ref))?.status).toBe('active');
    await kit.gateway.refund(ref, {});
    const refunded = await kit.gateway.fetchSubscription(ref);
    expect(refunded).toMatchObject({ status: 'refunded', onetime: true });
    expect(refunded?.endedAt).toBeInstanceOf(Date);
    const event = kit.standin.webhooks.events.findLast((seen) => seen.type === 'charge.refunded');
    expect((await verified(event))?.subscription).toMatchObject({ ref, status: 'refunded' });
    await expect(kit.gateway.resume(ref)).resolves.toMatchObject({ status: 'refunded' });
  });

  it('refunds once when the same refund is asked again (a lost answer, a second click)', async () => {
    const { session } = await boughtOnce();
    const ref = String(session.payment_intent);
    const ask = { amount: 300, reason: 'Refund (INV-1 #1)' };
    const first = await kit.gateway.refund(ref, ask);
    const again = await kit.gateway.refund(ref, ask);
    expect(again.ref).toBe(first.ref);
    // A deliberate second refund names itself differently, and is one.
    const second = await kit.gateway.refund(ref, { ...ask, reason: 'Refund (INV-1 #2)' });
    expect(second.ref).not.toBe(first.ref);
    const refunds = kit.standin.objects.all('refund').filter((r) => r.payment_intent === ref);
    expect(refunds).toHaveLength(2);
  });

  it('runs out at its period end: expired by billing’s time, and stays so', async () => {
    const { session } = await boughtOnce();
    const ref = String(session.payment_intent);
    const running = await kit.gateway.fetchSubscription(ref);
    later = 32 * DAY_MS;
    try {
      const expired = await kit.gateway.fetchSubscription(ref);
      expect(expired).toMatchObject({
        status: 'expired',
        currentPeriodEnd: running?.currentPeriodEnd,
        endedAt: running?.currentPeriodEnd,
      });
      await expect(kit.gateway.cancel(ref, { atPeriodEnd: true })).rejects.toMatchObject({
        kind: 'invalid_state',
      });
    } finally {
      later = 0;
    }
  });

  it('shows a declined card on the page and makes no invoice', async () => {
    const { customerRef, paid, session } = await boughtOnce('4000000000000341');
    expect(paid.status).toBe(402);
    expect(session).toMatchObject({ status: 'open', payment_intent: null, invoice: null });
    const invoices = kit.standin.objects.all('invoice').filter((i) => i.customer === customerRef);
    expect(invoices).toEqual([]);
  });
});

describe('a saved card', () => {
  it('subscribes at once, and a card that cannot pay is declined with nothing made', async () => {
    const started = await subscribed();
    expect(started.subscription).toMatchObject({
      status: 'active',
      paymentMethodRef: started.card,
    });
    expect(started.invoice).toMatchObject({ status: 'paid', amountPaid: 1299 });

    const customerRef = await customer();
    const token = await kit.cardToken('4000000000000341');
    const added = await kit.gateway.cards?.add(customerRef, token, { makeDefault: true });
    if (added?.kind !== 'added') throw new Error('0341 saves');
    const outcome = await kit.gateway.startSubscription({
      customerRef,
      items: [{ ...MONTHLY, ref: prices.monthly }],
      discount: null,
      paymentToken: null,
      paymentMethodRef: added.card.ref,
      returnUrl: 'http://app.test/thanks',
      cancelUrl: 'http://app.test/order',
      idempotencyKey: `refused-${user}`,
      metadata: { userId: String(user) },
    });
    expect(outcome).toEqual({
      kind: 'declined',
      decline: { code: 'card_declined', message: 'Your card was declined.' },
    });
    const list = await kit.stripe.subscriptions.list({ customer: customerRef, status: 'all' });
    expect(list.data).toEqual([]);
  });
});

describe('a new default card', () => {
  it('is what the running subscriptions are charged to from now on, not only new ones', async () => {
    const { customerRef, subscription, card: first } = await subscribed();
    const token = await kit.cardToken('5555555555554444');
    const second = await kit.gateway.cards?.add(customerRef, token, { makeDefault: false });
    if (second?.kind !== 'added') throw new Error('4444 saves');
    // Started on a saved card, the subscription names that card itself (it comes first).
    expect((await kit.gateway.fetchSubscription(subscription.ref))?.paymentMethodRef).toBe(first);
    await kit.gateway.cards?.setDefault(customerRef, second.card.ref);
    expect((await kit.gateway.fetchSubscription(subscription.ref))?.paymentMethodRef).toBe(
      second.card.ref,
    );
    // A card added as the default (fixing a payment) moves them too.
    const third = await kit.gateway.cards?.add(
      customerRef,
      await kit.cardToken('4242424242424242'),
      {
        makeDefault: true,
      },
    );
    if (third?.kind !== 'added') throw new Error('4242 saves');
    expect((await kit.gateway.fetchSubscription(subscription.ref))?.paymentMethodRef).toBe(
      third.card.ref,
    );
  });
});

describe('changes to a running subscription', () => {
  it('previews and makes an upgrade with proration', async () => {
    const { subscription } = await subscribed();
    const change = {
      subscriptionRef: subscription.ref,
      items: [{ ...YEARLY, ref: prices.yearly }],
      idempotencyKey: `upgrade-${subscription.ref}`,
    };
    const preview = await kit.gateway.previewChange(change);
    expect(preview.currency).toBe('USD');
    // Just started: nearly all of the month is credited, the year starts now in full.
    expect(preview.credit).toBeGreaterThan(1250);
    expect(preview.credit).toBeLessThanOrEqual(1299);
    expect(preview.charge).toBe(7188);
    expect(preview.due).toBe(7188 - preview.credit);
    expect(preview.nextAmount).toBe(7188);
    const year = (Number(preview.periodEnd) - Date.now()) / 86_400_000;
    expect(year).toBeGreaterThan(364);

    const outcome = await kit.gateway.changePlan(change);
    expect(outcome.kind).toBe('completed');
    if (outcome.kind !== 'completed') return;
    expect(outcome.subscription.items).toEqual([
      { priceRef: prices.yearly, productId: 42, quantity: 1, amount: 7188 },
    ]);
    expect(outcome.invoice).toMatchObject({
      status: 'paid',
      reason: 'subscription_update',
      total: preview.due,
    });
    expect(outcome.invoice?.lines.some((line) => line.proration && line.amount < 0)).toBe(true);
  });

  it('declines an upgrade the card cannot pay, and keeps the old plan', async () => {
    const { subscription, card } = await subscribed();
    // The card starts refusing charges (as a bank would after a while).
    const method = kit.standin.objects.get('payment_method', card);
    if (method) method.number = '4000000000000341';
    const outcome = await kit.gateway.changePlan({
      subscriptionRef: subscription.ref,
      items: [{ ...YEARLY, ref: prices.yearly }],
      idempotencyKey: `refused-upgrade-${subscription.ref}`,
    });
    expect(outcome).toMatchObject({ kind: 'declined', decline: { code: 'card_declined' } });
    const after = await kit.gateway.fetchSubscription(subscription.ref);
    expect(after?.items[0]?.priceRef).toBe(prices.monthly);
  });

  it('cancels at period end, resumes, pauses, continues, and ends at once', async () => {
    const { subscription } = await subscribed();
    const ref = subscription.ref;
    expect(await kit.gateway.cancel(ref, { atPeriodEnd: true })).toMatchObject({
      status: 'canceled',
      cancelAtPeriodEnd: true,
    });
    expect(await kit.gateway.resume(ref)).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: false,
    });
    const paused = await kit.gateway.pause(ref);
    expect(paused.status).toBe('paused');
    expect(paused.pausedAt).toBeInstanceOf(Date);
    expect(await kit.gateway.unpause(ref)).toMatchObject({ status: 'active', pausedAt: null });
    const ended = await kit.gateway.cancel(ref, { atPeriodEnd: false });
    expect(ended.status).toBe('expired');
    expect(ended.endedAt).toBeInstanceOf(Date);
    await expect(kit.gateway.pause(ref)).rejects.toBeInstanceOf(GatewayRequestError);
  });

  it('refunds the last payment; an ended subscription refunded in full is §4 refunded', async () => {
    const { subscription, invoice } = await subscribed();
    const intent = (await kit.stripe.invoices.retrieve(invoice.ref, { expand: ['payments'] }))
      .payments?.data[0]?.payment.payment_intent;
    const paymentRef = String(intent);
    const part = await kit.gateway.refund(paymentRef, { amount: 299, reason: 'goodwill' });
    expect(part).toMatchObject({
      paymentRef,
      invoiceRef: invoice.ref,
      amount: 299,
      currency: 'USD',
      reason: 'goodwill',
    });
    expect((await kit.gateway.fetchInvoice(invoice.ref))?.amountRefunded).toBe(299);
    await expect(kit.gateway.refund(paymentRef, { amount: 5000 })).rejects.toMatchObject({
      kind: 'invalid_request',
    });
    await kit.gateway.cancel(subscription.ref, { atPeriodEnd: false });
    const full = await kit.gateway.refund(paymentRef, {});
    expect((await kit.gateway.fetchSubscription(subscription.ref))?.status).toBe('refunded');
    // The same call again is the same refund (a retry); any other finds nothing left.
    expect((await kit.gateway.refund(paymentRef, {})).ref).toBe(full.ref);
    await expect(kit.gateway.refund(paymentRef, { reason: 'again' })).rejects.toMatchObject({
      kind: 'invalid_state',
    });
  });
});

describe('renewals and unpaid invoices', () => {
  it('puts a refused renewal on hold; paying its invoice makes it active again', async () => {
    const { subscription, customerRef } = await subscribed();
    await kit.standin.renew(subscription.ref, { fail: true });
    const held = await kit.gateway.fetchSubscription(subscription.ref);
    expect(held?.status).toBe('on_hold');
    const open = await kit.stripe.invoices.retrieve(
      String((await kit.stripe.subscriptions.retrieve(subscription.ref)).latest_invoice),
    );
    const invoice = await kit.gateway.fetchInvoice(open.id ?? '');
    expect(invoice).toMatchObject({
      status: 'open',
      reason: 'subscription_cycle',
      attemptCount: 1,
    });
    expect(invoice?.lastFailure).toBe('Your card was declined.');

    const badCard = await kit.cardToken('4000000000000341');
    await kit.gateway.cards?.add(customerRef, badCard, { makeDefault: false });
    const refused = await kit.gateway.payInvoice(open.id ?? '', {
      paymentMethodRef: badCard,
      idempotencyKey: `fix-bad-${open.id}`,
    });
    expect(refused).toMatchObject({ kind: 'declined', decline: { code: 'card_declined' } });

    const good = await kit.cardToken('4242424242424242');
    await kit.gateway.cards?.add(customerRef, good, { makeDefault: true });
    const paid = await kit.gateway.payInvoice(open.id ?? '', {
      paymentMethodRef: good,
      idempotencyKey: `fix-${open.id}`,
    });
    expect(paid).toMatchObject({ kind: 'paid', invoice: { status: 'paid', attemptCount: 3 } });
    expect((await kit.gateway.fetchSubscription(subscription.ref))?.status).toBe('active');
  });

  it('ends a subscription for non-payment as failed, its invoice written off', async () => {
    const { subscription } = await subscribed();
    await kit.standin.renew(subscription.ref, { fail: true });
    const ended = await kit.gateway.endForNonPayment(subscription.ref);
    expect(ended.status).toBe('failed');
    const latest = (await kit.stripe.subscriptions.retrieve(subscription.ref)).latest_invoice;
    expect((await kit.gateway.fetchInvoice(String(latest)))?.status).toBe('uncollectible');
  });

  it('lists every subscription for the reconciliation, page by page', async () => {
    const seen: string[] = [];
    for await (const found of kit.gateway.listSubscriptions?.(new Date(0)) ?? [])
      seen.push(found.ref);
    const all = kit.standin.objects.all('subscription').map((held) => held.id);
    expect(all.length).toBeGreaterThan(5);
    expect(seen.sort()).toEqual(all.sort());
  });
});

describe('saved cards', () => {
  it('adds, lists (default first), changes expiry, switches default and removes', async () => {
    const customerRef = await customer();
    const refused = await kit.gateway.cards?.add(
      customerRef,
      await kit.cardToken('4000000000009995'),
      {
        makeDefault: true,
      },
    );
    expect(refused).toMatchObject({ kind: 'declined', decline: { code: 'insufficient_funds' } });
    const first = await kit.gateway.cards?.add(
      customerRef,
      await kit.cardToken('4242424242424242'),
      {
        makeDefault: true,
      },
    );
    const second = await kit.gateway.cards?.add(
      customerRef,
      await kit.cardToken('5555555555554444'),
      {
        makeDefault: false,
      },
    );
    if (first?.kind !== 'added' || second?.kind !== 'added') throw new Error('cards saved');
    expect(second.card).toMatchObject({
      brand: 'mastercard',
      last4: '4444',
      expYear: 2034,
      isDefault: false,
    });
    const changed = await kit.gateway.cards?.update(second.card.ref, {
      expMonth: 3,
      expYear: 2036,
    });
    expect(changed).toMatchObject({ expMonth: 3, expYear: 2036 });
    const listed = await kit.gateway.cards?.setDefault(customerRef, second.card.ref);
    expect(listed?.map((card) => [card.last4, card.isDefault])).toEqual([
      ['4444', true],
      ['4242', false],
    ]);
    await kit.gateway.cards?.remove(first.card.ref);
    expect((await kit.gateway.cards?.list(customerRef))?.map((card) => card.last4)).toEqual([
      '4444',
    ]);
  });

  it('starts a Checkout in setup mode for a card without Stripe.js', async () => {
    const customerRef = await customer();
    const url = await kit.gateway.startCardSetup({
      customerRef,
      returnUrl: 'http://app.test/en/billing/payment-methods',
      cancelUrl: 'http://app.test/en/billing/payment-methods',
      idempotencyKey: `setup-${customerRef}`,
    });
    expect(await (await fetch(url)).text()).toContain('Save card');
    expect((await kit.standin.payCheckout(sessionIdOf(url))).status).toBe(303);
    expect((await kit.gateway.cards?.list(customerRef))?.map((card) => card.last4)).toEqual([
      '4242',
    ]);
  });
});

describe('failures in our terms', () => {
  it('answers an unknown object as not found', async () => {
    expect(await kit.gateway.fetchSubscription('sub_missing')).toBeNull();
    expect(await kit.gateway.fetchInvoice('in_missing')).toBeNull();
    await expect(kit.gateway.cancel('sub_missing', { atPeriodEnd: true })).rejects.toMatchObject({
      kind: 'not_found',
    });
  });

  it('takes a refused key or an unreachable Stripe as unavailable, never leaking the key', async () => {
    const deps = { log: Fastify({ logger: false }).log, appUrl: 'http://app.test' };
    const wrongKey = createStripeGateway(
      {
        secretKey: 'sk_test_wrong_secret_value',
        webhookSecret: 'whsec_x',
        apiUrl: kit.standin.url,
        googlePay: false,
        applePay: false,
      },
      deps,
    );
    const refused = await wrongKey.fetchSubscription('sub_x').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GatewayUnavailable);
    expect(String((refused as Error).message)).not.toContain('wrong_secret');

    const gone = await startStripeStandin({
      secretKey: 'sk_test_gone',
      webhookSecret: 'whsec_gone',
    });
    const url = gone.url;
    await gone.close();
    const unreachable = createStripeGateway(
      {
        secretKey: 'sk_test_gone',
        webhookSecret: 'whsec_gone',
        apiUrl: url,
        googlePay: false,
        applePay: false,
      },
      deps,
    );
    await expect(unreachable.fetchSubscription('sub_x')).rejects.toBeInstanceOf(GatewayUnavailable);
    // The SDK itself, pointed the same way, is what the gateway uses.
    await expect(sdkFor(url, 'sk_test_gone').customers.list()).rejects.toThrow();
  });

  it('says how Checkout sells: a redirect, with the wallets the settings turn on', () => {
    expect(kit.gateway.checkoutStyle).toEqual({
      checkout: 'redirect',
      tokenizeUrl: null,
      googlePay: true,
      applePay: false,
      cryptoProcessing: false,
    });
  });
});
