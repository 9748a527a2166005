import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { currentSubscriptionEndpoint } from '#shared/contracts/current-subscription.ts';
import {
  entitlements,
  gatewayEvents,
  invoices,
  payments,
  products,
  refunds,
  subscriptions,
} from '../../../db/schema/index.ts';
import type { App } from '../../../http/types.ts';
import { lapseEndedPeriods } from '../../../modules/billing/reconciliation.ts';
import { openShop, type Shop } from '../../../test/billing-kit.ts';
import type { StripeEvent } from '../../../test/stripe-standin/standin-objects.ts';
import {
  openStripe,
  type StripeKit,
  sessionIdOf,
} from '../../../test/stripe-standin/stripe-kit.ts';
import { createTestApp } from '../../../test/test-app.ts';
import { signedInUser, type TestSession } from '../../../test/test-sessions.ts';

// Stripe through our app: an order goes to Stripe's Checkout, the customer pays there,
// Stripe's signed webhooks reach our real route, and the billing endpoints act through
// Stripe. The stand-in's webhooks are posted to the app with `inject`.

const e = billingEndpoints;
const WEBHOOK = '/api/public/v1/webhooks/stripe';
let app: App;
let kit: StripeKit;
let shop: Shop;

beforeAll(async () => {
  ({ app } = await createTestApp());
  kit = await openStripe({
    appUrl: app.config.appUrl,
    // One-time purchases run out by billing's clock, which a test moves.
    now: () => app.payments.clock.now(),
    deliver: async (headers, body) =>
      (await app.inject({ method: 'POST', url: WEBHOOK, headers, payload: body })).statusCode,
  });
  app.payments.add(kit.gateway);
  shop = await openShop(app);
  return () => kit.close();
});

/** A customer who ordered a plan and paid on Stripe's Checkout page. */
async function buyer(plan = '1 month'): Promise<{ session: TestSession; ref: string }> {
  const session = await signedInUser(app);
  const product = await shop.plan(plan);
  const order = await shop.call(e.checkout, {
    cookie: session.cookie,
    body: {
      product_id: product.id,
      addon_ids: [],
      payment: { service_id: 1 },
      idempotency_key: randomUUID(),
      lang: 'en',
    },
  });
  expect(order.status).toBe(200);
  expect(order.data).toMatchObject({ status: 'requires_action', subscription_id: null });
  const url = order.data.redirect_url ?? '';
  expect(url.startsWith(`${kit.standin.url}/c/pay/cs_`)).toBe(true);
  const paid = await kit.standin.payCheckout(sessionIdOf(url));
  expect(paid.status).toBe(303);
  expect(paid.headers.get('location')).toMatch(/\/en\/order-received\/thanks\?session_id=cs_/);
  const [row] = await app.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, session.user.id));
  return { session, ref: row?.gatewayRef ?? '' };
}

async function detail(session: TestSession) {
  return (await shop.call(e.subscription, { cookie: session.cookie })).data.subscription;
}

async function eventCount(): Promise<number> {
  const [row] = await app.db.select({ n: count() }).from(gatewayEvents);
  return row?.n ?? 0;
}

function post(body: string, signature?: string) {
  return app.inject({
    method: 'POST',
    url: WEBHOOK,
    headers: {
      'content-type': 'application/json',
      ...(signature ? { 'stripe-signature': signature } : {}),
    },
    payload: body,
  });
}

describe('buying on Stripe Checkout', () => {
  it('offers service 1 as a redirect to Stripe; paying there makes an active card subscription', async () => {
    const services = await shop.call(e.services);
    expect(services.data.items[0]).toMatchObject({
      service_id: 1,
      payment_method_type: 'card',
      checkout: 'redirect',
      tokenize_url: null,
      google_pay: true,
      apple_pay: false,
    });

    const { session, ref } = await buyer();
    expect(ref).toMatch(/^sub_/);
    const current = await shop.call(currentSubscriptionEndpoint, { cookie: session.cookie });
    expect(current.data.subscription).toEqual({
      status: 'active',
      service_id: 1,
      onetime: false,
      exists: true,
    });
    const subscription = await detail(session);
    expect(subscription).toMatchObject({
      status: 'active',
      plan: { name: '1 month', interval: 'month' },
      payment_method: { type: 'card', card: { last4: '4242', brand: 'visa' } },
      amount: 1299,
    });
    const list = await shop.call(e.invoices, { cookie: session.cookie });
    expect(list.data.items).toHaveLength(1);
    expect(list.data.items[0]).toMatchObject({ status: 'paid', total: 1299, amount_paid: 1299 });
    const access = await app.db
      .select()
      .from(entitlements)
      .where(eq(entitlements.userId, session.user.id));
    expect(access[0]?.endsAt?.toISOString()).toBe(subscription.current_period_end);
    const outcomes = await app.db
      .select()
      .from(gatewayEvents)
      .where(eq(gatewayEvents.gateway, 'stripe'));
    expect(outcomes.every((row) => row.outcome !== 'failed')).toBe(true);
    expect(outcomes.map((row) => row.type)).toContain('checkout.session.completed');
  });

  it('cancels at period end, resumes, pauses and continues through Stripe', async () => {
    const { session, ref } = await buyer();
    const cancel = await shop.call(e.cancel, { cookie: session.cookie });
    expect(cancel.data.subscription).toMatchObject({
      status: 'canceled',
      cancel_at_period_end: true,
    });
    expect((await kit.stripe.subscriptions.retrieve(ref)).cancel_at_period_end).toBe(true);

    const resume = await shop.call(e.resume, { cookie: session.cookie });
    expect(resume.data.subscription).toMatchObject({
      status: 'active',
      cancel_at_period_end: false,
    });
    expect((await kit.stripe.subscriptions.retrieve(ref)).cancel_at_period_end).toBe(false);

    const pause = await shop.call(e.pause, { cookie: session.cookie });
    expect(pause.data.subscription.status).toBe('paused');
    expect(pause.data.subscription.paused_at).not.toBeNull();
    expect((await kit.stripe.subscriptions.retrieve(ref)).pause_collection).toEqual({
      behavior: 'void',
      resumes_at: null,
    });
    const resumed = await shop.call(e.continue, { cookie: session.cookie });
    expect(resumed.data.subscription.status).toBe('active');
    expect((await kit.stripe.subscriptions.retrieve(ref)).pause_collection).toBeNull();
    // The webhooks of each change came after the answers, and agree with them.
    expect((await detail(session)).status).toBe('active');
  });

  it('previews an upgrade with proration and makes it', async () => {
    const { session, ref } = await buyer();
    const yearly = await shop.plan('1 year');
    const preview = await shop.call(e.changePreview, {
      cookie: session.cookie,
      query: { product_id: yearly.id },
    });
    expect(preview.status).toBe(200);
    expect(preview.data.credit).toBeGreaterThan(1250);
    expect(preview.data.due).toBe(yearly.amount - preview.data.credit);
    expect(preview.data.next_amount).toBe(yearly.amount);

    const change = await shop.call(e.change, {
      cookie: session.cookie,
      body: { product_id: yearly.id, idempotency_key: randomUUID() },
    });
    expect(change.data.status).toBe('completed');
    expect((await detail(session)).plan).toMatchObject({ name: '1 year', interval: 'year' });
    const held = await kit.stripe.subscriptions.retrieve(ref);
    expect(held.items.data.map((item) => item.price.unit_amount)).toEqual([yearly.amount]);
    const list = await shop.call(e.invoices, { cookie: session.cookie });
    expect(list.data.items.map((item) => item.total).sort()).toEqual(
      [1299, yearly.amount - preview.data.credit].sort(),
    );
  });

  it('takes a renewal and a refused one from Stripe’s webhooks', async () => {
    const { session, ref } = await buyer();
    await kit.standin.renew(ref);
    expect((await detail(session)).status).toBe('active');
    await kit.standin.renew(ref, { fail: true });
    const held = await detail(session);
    expect(held.status).toBe('on_hold');
    expect(held.grace_until).not.toBeNull();
    const rows = await app.db.select().from(invoices).where(eq(invoices.userId, session.user.id));
    expect(rows.map((row) => row.status).sort()).toEqual(['open', 'paid', 'paid']);
  });

  it('records a refund made at Stripe', async () => {
    const { session } = await buyer();
    const [payment] = await app.db
      .select()
      .from(payments)
      .where(and(eq(payments.userId, session.user.id), eq(payments.gateway, 'stripe')));
    expect(payment?.status).toBe('succeeded');
    await kit.gateway.refund(payment?.gatewayRef ?? '', { amount: 500 });
    await kit.standin.webhooks.flush();
    const given = await app.db
      .select()
      .from(refunds)
      .where(eq(refunds.paymentId, payment?.id ?? 0));
    expect(given.map((row) => row.amount)).toEqual([500]);
    const [invoice] = await app.db
      .select()
      .from(invoices)
      .where(eq(invoices.id, payment?.invoiceId ?? 0));
    expect(invoice?.amountRefunded).toBe(500);
  });
});

describe('webhook signatures and delivery order', () => {
  it('refuses forged, tampered, stale and unsigned webhooks with 400, changing nothing', async () => {
    const { ref } = await buyer();
    const event = kit.standin.webhooks.events.findLast(
      (seen) => seen.type === 'customer.subscription.updated',
    ) as StripeEvent;
    // The same event, now saying the subscription was cancelled.
    const forgedEvent = { ...event, id: `evt_forged_${randomUUID()}` };
    const body = JSON.stringify(forgedEvent);
    const before = await eventCount();

    const other = await post(body, kit.standin.webhooks.sign(body, { secret: 'whsec_not_ours' }));
    expect(other.statusCode).toBe(400);
    const signature = kit.standin.webhooks.sign(body);
    const tampered = await post(body.replace('"active"', '"canceled"'), signature);
    expect(tampered.statusCode).toBe(400);
    const stale = await post(
      body,
      kit.standin.webhooks.sign(body, { timestamp: Math.floor(Date.now() / 1000) - 600 }),
    );
    expect(stale.statusCode).toBe(400);
    expect((await post(body)).statusCode).toBe(400);
    expect(await eventCount()).toBe(before);

    const [row] = await app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.gatewayRef, ref));
    expect(row?.status).toBe('active');
    // Signed as Stripe signs it, the same body is taken.
    expect((await post(body, signature)).statusCode).toBe(200);
    expect(await eventCount()).toBe(before + 1);
  });

  it('answers a replay 200 and changes nothing', async () => {
    const { session } = await buyer();
    const delivered = kit.standin.webhooks.deliveries.filter((entry) => entry.status === 200);
    const last = delivered.at(-1)?.event as StripeEvent;
    const before = await eventCount();
    const held = await detail(session);
    const again = await kit.standin.webhooks.send(last);
    expect(again).toBe(200);
    expect(await eventCount()).toBe(before);
    expect(await detail(session)).toEqual(held);
  });

  it('converges to Stripe’s state when events come late and out of order', async () => {
    const { session, ref } = await buyer();
    kit.standin.webhooks.holding = true;
    try {
      // A refused renewal, then the customer pays it: four states in a row at Stripe.
      await kit.standin.renew(ref, { fail: true });
      const open = String((await kit.stripe.subscriptions.retrieve(ref)).latest_invoice);
      const card = await kit.cardToken('4242424242424242');
      await kit.stripe.paymentMethods.attach(card, {
        customer: String((await kit.stripe.subscriptions.retrieve(ref)).customer),
      });
      await kit.stripe.invoices.pay(open, { payment_method: card });
      await kit.gateway.cancel(ref, { atPeriodEnd: true });
    } finally {
      kit.standin.webhooks.holding = false;
    }
    const held = kit.standin.webhooks.held.splice(0);
    expect(held.length).toBeGreaterThan(6);
    for (const event of held.reverse()) expect(await kit.standin.webhooks.send(event)).toBe(200);
    const subscription = await detail(session);
    expect(subscription).toMatchObject({ status: 'canceled', cancel_at_period_end: true });
    const rows = await app.db.select().from(invoices).where(eq(invoices.userId, session.user.id));
    expect(rows.map((row) => row.status)).toEqual(['paid', 'paid']);
    // The oldest event once more, now: still Stripe's latest state.
    expect(await kit.standin.webhooks.send(held[held.length - 1] as StripeEvent)).toBe(200);
    expect((await detail(session)).status).toBe('canceled');
  });
});

// Last in the file: it moves the billing clock on, past every period bought above.
describe('a one-time purchase on Stripe Checkout', () => {
  it('grants the period bought on Checkout in payment mode, and ends it when it runs out', async () => {
    const [product] = await app.db
      .insert(products)
      .values({
        serviceId: 1,
        plan: 'standard',
        name: '1 month, paid once',
        description: 'Every server for a month, renewed by nothing.',
        amount: 1499,
        currency: 'USD',
        interval: 'month',
        intervalCount: 1,
        onetime: true,
        sort: 1,
      })
      .returning();
    if (!product) throw new Error('no product');
    app.catalog.invalidate();
    const session = await signedInUser(app);
    const order = await shop.call(e.checkout, {
      cookie: session.cookie,
      body: {
        product_id: product.id,
        addon_ids: [],
        payment: { service_id: 1 },
        idempotency_key: randomUUID(),
        lang: 'en',
      },
    });
    expect(order.status).toBe(200);
    expect(order.data).toMatchObject({ status: 'requires_action', subscription_id: null });
    const checkoutId = sessionIdOf(order.data.redirect_url ?? '');
    expect((await kit.stripe.checkout.sessions.retrieve(checkoutId)).mode).toBe('payment');
    const before = Date.now();
    const paid = await kit.standin.payCheckout(checkoutId);
    expect(paid.status).toBe(303);

    const current = await shop.call(currentSubscriptionEndpoint, { cookie: session.cookie });
    expect(current.data.subscription).toEqual({
      status: 'active',
      service_id: 1,
      onetime: true,
      exists: true,
    });
    const [row] = await app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, session.user.id));
    const completed = await kit.stripe.checkout.sessions.retrieve(checkoutId);
    expect(row).toMatchObject({
      gateway: 'stripe',
      gatewayRef: String(completed.payment_intent),
      status: 'active',
      onetime: true,
      serviceId: 1,
      productId: product.id,
      cancelAtPeriodEnd: false,
    });
    const start = row?.currentPeriodStart ?? new Date(0);
    expect(start.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    const end = new Date(start);
    end.setUTCMonth(end.getUTCMonth() + 1);
    expect(row?.currentPeriodEnd?.getTime()).toBe(end.getTime());
    const bought = await app.db.select().from(invoices).where(eq(invoices.userId, session.user.id));
    expect(bought).toHaveLength(1);
    expect(bought[0]).toMatchObject({
      gatewayRef: String(completed.invoice),
      subscriptionId: row?.id,
      status: 'paid',
      total: 1499,
    });
    const [payment] = await app.db
      .select()
      .from(payments)
      .where(eq(payments.userId, session.user.id));
    expect(payment).toMatchObject({ gatewayRef: row?.gatewayRef, status: 'succeeded' });
    const [access] = await app.db
      .select()
      .from(entitlements)
      .where(eq(entitlements.userId, session.user.id));
    expect(access?.endsAt?.getTime()).toBe(end.getTime());
    const outcomes = await app.db
      .select()
      .from(gatewayEvents)
      .where(eq(gatewayEvents.gateway, 'stripe'));
    expect(outcomes.filter((event) => event.outcome === 'failed')).toEqual([]);

    // Billing's time passes the period's end: the lapse step reads it back, expired.
    const now = app.payments.clock.now();
    await app.payments.clock.advance(end.getTime() - now.getTime() + 60_000);
    await lapseEndedPeriods(app);
    const after = await shop.call(currentSubscriptionEndpoint, { cookie: session.cookie });
    expect(after.data.subscription).toMatchObject({
      status: 'expired',
      service_id: 1,
      onetime: true,
    });
    const [ended] = await app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, row?.id ?? 0));
    expect(ended?.endedAt?.getTime()).toBe(end.getTime());
  });
});
