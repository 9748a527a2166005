import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { currentSubscriptionEndpoint } from '#shared/contracts/current-subscription.ts';
import { gatewayEvents, invoices, refunds, subscriptions } from '../../../db/schema/index.ts';
import type { App } from '../../../http/types.ts';
import { demoPlan } from '../../../modules/billing/demo-catalog.ts';
import { openShop, type Shop } from '../../../test/billing-kit.ts';
import {
  type PayPalStandIn,
  startPayPalStandIn,
} from '../../../test/paypal-standin/paypal-standin.ts';
import { createTestApp } from '../../../test/test-app.ts';
import { signedInUser, type TestSession } from '../../../test/test-sessions.ts';
import type { PaymentGateway } from '../gateway.ts';
import { createPayPalGateway } from './paypal-gateway.ts';

// A PayPal subscription through our app: the order page's checkout, the stand-in's approval
// page, its signed webhooks to our real route and database, and what the customer then sees
// and does; forged, tampered, stale and replayed webhooks; events out of order.

const e = billingEndpoints;
const CREDENTIALS = { clientId: 'AZ-app-client', clientSecret: 'EC-app-secret' };
const WEBHOOK_ID = '5GP028458E2496506';
const WEBHOOK = '/api/public/v1/webhooks/paypal';

let app: App;
let shop: Shop;
let standIn: PayPalStandIn;
let gateway: PaymentGateway;
/** While set, webhooks wait here instead of reaching our route. */
let held: { headers: Record<string, string>; body: string }[] | null = null;

const post = (headers: Record<string, string>, body: string) =>
  app.inject({ method: 'POST', url: WEBHOOK, headers, payload: body });

beforeAll(async () => {
  ({ app } = await createTestApp());
  shop = await openShop(app);
  standIn = await startPayPalStandIn({
    ...CREDENTIALS,
    webhookId: WEBHOOK_ID,
    deliver: async (headers, body) => {
      if (held) {
        held.push({ headers, body });
        return 200;
      }
      return (await post(headers, body)).statusCode;
    },
  });
  gateway = createPayPalGateway(
    { ...CREDENTIALS, webhookId: WEBHOOK_ID, environment: 'sandbox', apiUrl: standIn.origin },
    { log: app.log, appUrl: app.config.appUrl },
  );
  app.payments.add(gateway);
});
afterAll(() => standIn.close());

/** A customer orders the 1 month PayPal plan and is sent to PayPal's approval page. */
async function order(buyer: TestSession) {
  const plan = await demoPlan(app.db, 'USD', '1 month', 2);
  const answer = await shop.call(e.checkout, {
    cookie: buyer.cookie,
    body: {
      product_id: plan.id,
      addon_ids: [],
      payment: { service_id: 2 },
      idempotency_key: randomUUID(),
      lang: 'en',
    },
  });
  expect(answer.status).toBe(200);
  expect(answer.data).toMatchObject({ status: 'requires_action', subscription_id: null });
  const url = answer.data.redirect_url ?? '';
  expect(url.startsWith(`${standIn.origin}/webapps/billing/subscriptions?ba_token=`)).toBe(true);
  return { plan, url };
}

/** The buyer presses a button on the approval page; answers where PayPal sends them. */
async function press(url: string, decision: 'approve' | 'cancel'): Promise<URL> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const answer = await fetch(`${standIn.origin}/webapps/billing/subscriptions/decide`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      ba_token: new URL(url).searchParams.get('ba_token') ?? '',
      decision,
    }),
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location') ?? '');
}

async function ourRows(userId: number) {
  const [subscription] = await app.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.gateway, 'paypal')));
  const bills = await app.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.userId, userId), eq(invoices.gateway, 'paypal')));
  const events = await app.db
    .select()
    .from(gatewayEvents)
    .where(eq(gatewayEvents.gateway, 'paypal'));
  return { subscription, bills, events };
}

async function subscribedBuyer() {
  const buyer = await signedInUser(app);
  const { url } = await order(buyer);
  const back = await press(url, 'approve');
  const id = back.searchParams.get('subscription_id') ?? '';
  return { buyer, id };
}

describe('a PayPal subscription through our app', () => {
  it('is current and active once the buyer approves at PayPal', async () => {
    const buyer = await signedInUser(app);
    const { url, plan } = await order(buyer);
    // Not approved yet: nothing is the customer's.
    expect((await ourRows(buyer.user.id)).subscription).toBeUndefined();

    const back = await press(url, 'approve');
    expect(`${back.origin}${back.pathname}`).toBe(`${app.config.appUrl}/en/order-received/thanks`);
    expect(back.searchParams.get('subscription_id')).toMatch(/^I-/);
    expect(back.searchParams.get('ba_token')).toMatch(/^BA-/);
    expect(back.searchParams.get('token')).toMatch(/^EC-/);
    expect(standIn.deliveries.slice(-2).map((d) => [d.type, d.status])).toEqual([
      ['BILLING.SUBSCRIPTION.ACTIVATED', 200],
      ['PAYMENT.SALE.COMPLETED', 200],
    ]);

    const current = await shop.call(currentSubscriptionEndpoint, { cookie: buyer.cookie });
    expect(current.data).toEqual({
      subscription: { status: 'active', service_id: 2, onetime: false, exists: true },
      last_invoice_finalizing: false,
    });
    const detail = await shop.call(e.subscription, { cookie: buyer.cookie });
    expect(detail.data.subscription).toMatchObject({
      status: 'active',
      service_id: 2,
      payment_method: { type: 'paypal', card: null },
      plan: { product_id: plan.id, interval: 'month' },
      amount: plan.amount,
      currency: 'USD',
      cancel_at_period_end: false,
    });
    const rows = await ourRows(buyer.user.id);
    expect(rows.bills).toEqual([
      expect.objectContaining({ status: 'paid', total: plan.amount, amountPaid: plan.amount }),
    ]);
    expect(rows.bills[0]?.subscriptionId).toBe(rows.subscription?.id);
  });

  it('comes back to the order page with nothing bought when the buyer cancels at PayPal', async () => {
    const buyer = await signedInUser(app);
    const { url, plan } = await order(buyer);
    const back = await press(url, 'cancel');
    expect(back.toString()).toBe(`${app.config.appUrl}/en/order-v2?plan=${plan.id}`);
    expect((await ourRows(buyer.user.id)).subscription).toBeUndefined();
  });

  it('cancels at period end: access to the end of the paid period, no resuming at PayPal', async () => {
    const { buyer, id } = await subscribedBuyer();
    const before = await shop.call(e.subscription, { cookie: buyer.cookie });
    const canceled = await shop.call(e.cancel, { cookie: buyer.cookie });
    expect(canceled.status).toBe(200);
    expect(canceled.data.subscription).toMatchObject({
      status: 'canceled',
      cancel_at_period_end: true,
      current_period_end: before.data.subscription.current_period_end,
    });
    expect(standIn.books.subscriptions.get(id)?.status).toBe('CANCELLED');
    // PayPal cannot undo a cancel: the customer is told, nothing changes.
    expect((await shop.call(e.resume, { cookie: buyer.cookie })).status).toBe(409);
    const after = await shop.call(e.subscription, { cookie: buyer.cookie });
    expect(after.data.subscription.status).toBe('canceled');
  });

  it('follows a suspend at PayPal as paused, and continues through our endpoint', async () => {
    const { buyer, id } = await subscribedBuyer();
    await gateway.pause(id);
    const paused = await shop.call(e.subscription, { cookie: buyer.cookie });
    expect(paused.data.subscription).toMatchObject({ status: 'paused' });
    expect(paused.data.subscription.paused_at).not.toBeNull();
    const continued = await shop.call(e.continue, { cookie: buyer.cookie });
    expect(continued.status).toBe(200);
    expect(continued.data.subscription).toMatchObject({ status: 'active', paused_at: null });
    expect(standIn.books.subscriptions.get(id)?.status).toBe('ACTIVE');
  });

  it('records a refund PayPal reports', async () => {
    const { buyer, id } = await subscribedBuyer();
    const { bills } = await ourRows(buyer.user.id);
    const paid = bills[0];
    if (!paid) throw new Error('no paid invoice');
    const given = await gateway.refund(paid.gatewayRef, { amount: 500 });
    expect(standIn.deliveries.at(-1)).toMatchObject({ type: 'PAYMENT.SALE.REFUNDED', status: 200 });
    const rows = await app.db.select().from(refunds).where(eq(refunds.invoiceId, paid.id));
    expect(rows).toEqual([expect.objectContaining({ gatewayRef: given.ref, amount: 500 })]);
    // The rest, and the subscription's next event carries the invoice refunded in full.
    await gateway.refund(paid.gatewayRef, {});
    await standIn.renew(id, 'failed');
    const [bill] = await app.db.select().from(invoices).where(eq(invoices.id, paid.id));
    expect(bill?.amountRefunded).toBe(paid.amountPaid);
  });

  it('goes on hold when a renewal fails and is active again when PayPal collects', async () => {
    const { buyer, id } = await subscribedBuyer();
    await standIn.renew(id, 'failed');
    expect(
      (await shop.call(e.subscription, { cookie: buyer.cookie })).data.subscription,
    ).toMatchObject({
      status: 'on_hold',
    });
    await standIn.renew(id, 'paid');
    expect(
      (await shop.call(e.subscription, { cookie: buyer.cookie })).data.subscription.status,
    ).toBe('active');
    expect((await ourRows(buyer.user.id)).bills.map((bill) => bill.status)).toEqual([
      'paid',
      'paid',
    ]);
  });
});

describe('PayPal webhooks at our route', () => {
  it('refuses forged, tampered, stale and foreign-certificate webhooks, changing nothing', async () => {
    const { buyer, id } = await subscribedBuyer();
    const before = await ourRows(buyer.user.id);
    // A cancel, as an attacker would like PayPal to have sent it.
    const claim = JSON.stringify({
      id: `WH-FORGED-${randomUUID()}`,
      event_type: 'BILLING.SUBSCRIPTION.CANCELLED',
      create_time: new Date().toISOString(),
      resource_type: 'subscription',
      resource: { id, status: 'CANCELLED' },
    });
    const genuine = standIn.sign(claim);
    const attempts: [string, Record<string, string>, string][] = [
      ['unsigned', { 'content-type': 'application/json' }, claim],
      ['tampered', genuine, claim.replace('CANCELLED"', 'SUSPENDED"')],
      ['another webhook id', standIn.sign(claim, { webhookId: 'SOMEONE-ELSES' }), claim],
      ['stale', standIn.sign(claim, { time: new Date(Date.now() - 10 * 60_000) }), claim],
      [
        'certificate from elsewhere',
        standIn.sign(claim, { certUrl: 'https://evil.example/v1/notifications/certs/CERT-1' }),
        claim,
      ],
      ['garbage signature', { ...genuine, 'paypal-transmission-sig': 'AAAA' }, claim],
    ];
    for (const [name, headers, body] of attempts) {
      expect([name, (await post(headers, body)).statusCode]).toEqual([name, 400]);
    }
    const after = await ourRows(buyer.user.id);
    expect(after.subscription?.status).toBe('active');
    expect(after.events).toHaveLength(before.events.length);
    expect(standIn.books.subscriptions.get(id)?.status).toBe('ACTIVE');
  });

  it('believes what PayPal holds, not what a genuine event carries', async () => {
    const { buyer, id } = await subscribedBuyer();
    // Signed by PayPal, but the subscription it names is still active at PayPal.
    const claim = JSON.stringify({
      id: `WH-${randomUUID()}`,
      event_type: 'BILLING.SUBSCRIPTION.CANCELLED',
      create_time: new Date().toISOString(),
      resource_type: 'subscription',
      resource: { id, status: 'CANCELLED' },
    });
    expect((await post(standIn.sign(claim), claim)).statusCode).toBe(200);
    expect((await ourRows(buyer.user.id)).subscription?.status).toBe('active');
  });

  it('answers a replay 200 and applies it once', async () => {
    const { buyer } = await subscribedBuyer();
    const sale = standIn.deliveries.filter((d) => d.type === 'PAYMENT.SALE.COMPLETED').at(-1);
    if (!sale) throw new Error('no sale delivered');
    const before = await ourRows(buyer.user.id);
    // PayPal's resend: the same event, a new transmission.
    expect((await post(standIn.sign(sale.body), sale.body)).statusCode).toBe(200);
    const after = await ourRows(buyer.user.id);
    expect(after.events).toHaveLength(before.events.length);
    expect(after.bills).toEqual(before.bills);
  });

  it('converges when events arrive out of order', async () => {
    const buyer = await signedInUser(app);
    const { url } = await order(buyer);
    held = [];
    const back = await press(url, 'approve');
    const id = back.searchParams.get('subscription_id') ?? '';
    await standIn.renew(id, 'paid');
    await gateway.cancel(id, { atPeriodEnd: true });
    const waiting = held;
    held = null;
    // The cancel first, the activation last: each is read back, so the last word is PayPal's.
    for (const { headers, body } of waiting.reverse()) {
      expect((await post(headers, body)).statusCode).toBe(200);
    }
    const rows = await ourRows(buyer.user.id);
    expect(rows.subscription).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: true });
    expect(rows.bills.map((bill) => bill.status)).toEqual(['paid', 'paid']);
  });
});
