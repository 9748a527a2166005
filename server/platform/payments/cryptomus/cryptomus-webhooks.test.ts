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
  type CryptomusStandIn,
  startCryptomusStandIn,
} from '../../../test/cryptomus-standin/cryptomus-standin.ts';
import { signedWebhookBody } from '../../../test/cryptomus-standin/standin-signature.ts';
import { createTestApp } from '../../../test/test-app.ts';
import { signedInUser, type TestSession } from '../../../test/test-sessions.ts';
import { until } from '../../../test/wait-until.ts';
import { type CryptomusGateway, createCryptomusGateway } from './cryptomus-gateway.ts';

// A crypto purchase through our app: the order page's checkout, the stand-in's payment page,
// its signed webhooks to our real route and database, and what the customer then sees.

const e = billingEndpoints;
const MERCHANT = 'c26b80a8-7ef7-4f55-b8a3-6b2b34a8e2a1';
const KEY = 'cryptomus-payment-key-of-the-webhook-tests';
const WEBHOOK = '/api/public/v1/webhooks/cryptomus';

let app: App;
let shop: Shop;
let standIn: CryptomusStandIn;
let gateway: CryptomusGateway;

beforeAll(async () => {
  ({ app } = await createTestApp());
  shop = await openShop(app);
  standIn = await startCryptomusStandIn({
    merchantId: MERCHANT,
    paymentKey: KEY,
    // Cryptomus's POSTs reach our real route, in-process.
    deliver: async (url, body) =>
      (
        await app.inject({
          method: 'POST',
          url: new URL(url).pathname,
          headers: { 'content-type': 'application/json' },
          payload: body,
        })
      ).statusCode,
  });
  gateway = createCryptomusGateway(
    { merchantId: MERCHANT, paymentKey: KEY, apiUrl: standIn.url },
    { log: app.log, appUrl: app.config.appUrl },
  );
  app.payments.add(gateway);
});
afterAll(() => standIn.close());

/** A customer orders the 1 month crypto plan: answers the stand-in's invoice. */
async function order(buyer: TestSession) {
  const plan = await demoPlan(app.db, 'USD', '1 month', 6);
  const answer = await shop.call(e.checkout, {
    cookie: buyer.cookie,
    body: {
      product_id: plan.id,
      addon_ids: [],
      payment: { service_id: 6 },
      idempotency_key: randomUUID(),
      lang: 'en',
    },
  });
  expect(answer.status).toBe(200);
  expect(answer.data).toMatchObject({ status: 'requires_action', subscription_id: null });
  const url = answer.data.redirect_url ?? '';
  expect(url.startsWith(`${standIn.url}/pay/`)).toBe(true);
  const invoice = standIn.find({ uuid: url.split('/').pop() ?? '' });
  if (!invoice) throw new Error('no invoice at the stand-in');
  return { plan, url, invoice };
}

/** A button of the hosted page, pressed: answers where it sends the customer. */
async function press(url: string, action: string): Promise<string | null> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action }),
    redirect: 'manual',
  });
  expect(answer.status).toBe(303);
  return answer.headers.get('location');
}

const postWebhook = (payload: string) =>
  app.inject({
    method: 'POST',
    url: WEBHOOK,
    headers: { 'content-type': 'application/json' },
    payload,
  });

async function ourRows(userId: number) {
  const [subscription] = await app.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.gateway, 'cryptomus')));
  const bills = await app.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.userId, userId), eq(invoices.gateway, 'cryptomus')));
  const events = await app.db
    .select()
    .from(gatewayEvents)
    .where(eq(gatewayEvents.gateway, 'cryptomus'));
  return { subscription, bills, events };
}

describe('a crypto purchase through Cryptomus', () => {
  it('waits in "crypto approval pending" while the chain confirms, then grants the period', async () => {
    const buyer = await signedInUser(app);
    const { url, invoice, plan } = await order(buyer);

    expect(await press(url, 'pay_unconfirmed')).toBe(`/pay/${invoice.uuid}`);
    expect(standIn.deliveries.at(-1)?.status).toBe(200);
    const pending = await ourRows(buyer.user.id);
    expect(pending.subscription).toBeUndefined();
    expect(pending.bills).toEqual([
      expect.objectContaining({ status: 'finalizing', total: plan.amount, subscriptionId: null }),
    ]);
    const approval = await shop.call(e.pendingPayment, { cookie: buyer.cookie });
    expect(approval.data).toMatchObject({
      crypto_approval_pending: true,
      pending: { service_id: 6, amount: plan.amount, currency: 'USD' },
    });
    const none = await shop.call(currentSubscriptionEndpoint, { cookie: buyer.cookie });
    expect(none.data.subscription).toBeNull();
    expect((await shop.call(e.subscription, { cookie: buyer.cookie })).status).toBe(404);

    // The network confirms: Cryptomus says paid, and the customer goes to the thanks page.
    expect(await press(url, 'confirm')).toBe(`${app.config.appUrl}/en/order-received/thanks`);
    const current = await shop.call(currentSubscriptionEndpoint, { cookie: buyer.cookie });
    expect(current.data).toEqual({
      subscription: { status: 'active', service_id: 6, onetime: true, exists: true },
      last_invoice_finalizing: false,
    });
    const detail = await shop.call(e.subscription, { cookie: buyer.cookie });
    const bought = detail.data.subscription;
    expect(bought).toMatchObject({
      onetime: true,
      payment_method: { type: 'crypto', card: null },
      plan: { product_id: plan.id, interval: 'month' },
      amount: plan.amount,
    });
    const start = new Date(bought.current_period_start ?? '');
    const end = new Date(bought.current_period_end ?? '');
    expect(Math.abs(start.getTime() - Date.now())).toBeLessThan(10_000);
    expect(end.getUTCMonth()).toBe((start.getUTCMonth() + 1) % 12);
    expect(end.getUTCDate()).toBe(Math.min(start.getUTCDate(), end.getUTCDate()));
    const paid = await ourRows(buyer.user.id);
    expect(paid.bills).toEqual([
      expect.objectContaining({ status: 'paid', amountPaid: plan.amount }),
    ]);
    expect(paid.bills[0]?.subscriptionId).toBe(paid.subscription?.id);
    expect(
      (await shop.call(e.pendingPayment, { cookie: buyer.cookie })).data.crypto_approval_pending,
    ).toBe(false);
  });

  it('refuses forged and tampered webhooks, changing nothing', async () => {
    const buyer = await signedInUser(app);
    const { url, invoice } = await order(buyer);
    await press(url, 'pay_unconfirmed');
    const before = await ourRows(buyer.user.id);
    const genuine = JSON.parse(standIn.deliveries.at(-1)?.body ?? '{}') as Record<string, unknown>;
    expect(genuine).toMatchObject({ uuid: invoice.uuid, status: 'confirm_check' });

    const paidClaim = { ...genuine, status: 'paid', is_final: true };
    for (const forged of [
      JSON.stringify(paidClaim),
      signedWebhookBody(paidClaim, `${KEY}-guess`),
      JSON.stringify({ ...paidClaim, sign: undefined }),
      'not json',
    ]) {
      expect((await postWebhook(forged)).statusCode).toBe(400);
    }
    const after = await ourRows(buyer.user.id);
    expect(after.subscription).toBeUndefined();
    expect(after.bills.map((bill) => bill.status)).toEqual(['finalizing']);
    expect(after.events).toHaveLength(before.events.length);
  });

  it("believes Cryptomus's status call, not a webhook's claim", async () => {
    const buyer = await signedInUser(app);
    const { invoice } = await order(buyer);
    const reads = standIn.infoCalls;
    // Correctly signed, but the invoice is still waiting for its transaction ("check").
    const claim = signedWebhookBody(
      {
        type: 'payment',
        uuid: invoice.uuid,
        order_id: invoice.order_id,
        amount: invoice.amount,
        is_final: true,
        status: 'paid',
        additional_data: invoice.additional_data,
      },
      KEY,
    );
    expect((await postWebhook(claim)).statusCode).toBe(200);
    expect(standIn.infoCalls).toBe(reads + 1);
    const rows = await ourRows(buyer.user.id);
    expect(rows.subscription).toBeUndefined();
    expect(rows.bills.map((bill) => bill.status)).toEqual(['finalizing']);
    expect(rows.events.map((event) => event.eventRef)).toContain(`${invoice.uuid}:check`);
  });

  it('applies a replayed webhook once', async () => {
    const buyer = await signedInUser(app);
    const { url, invoice } = await order(buyer);
    await press(url, 'pay');
    const first = await ourRows(buyer.user.id);
    expect(first.subscription).toMatchObject({ status: 'active' });
    const replay = await standIn.resend(invoice.uuid);
    expect(replay.status).toBe(200);
    const again = await ourRows(buyer.user.id);
    expect(again.events).toHaveLength(first.events.length);
    expect(again.subscription).toEqual(first.subscription);
    expect(again.bills).toEqual(first.bills);
  });

  it('answers 5xx when Cryptomus cannot be asked, and takes the webhook sent again', async () => {
    const buyer = await signedInUser(app);
    const { url, invoice } = await order(buyer);
    standIn.failInfoCalls(1);
    await press(url, 'pay');
    expect(standIn.deliveries.at(-1)?.status).toBeGreaterThanOrEqual(500);
    expect((await ourRows(buyer.user.id)).subscription).toBeUndefined();
    expect((await standIn.resend(invoice.uuid)).status).toBe(200);
    expect((await ourRows(buyer.user.id)).subscription).toMatchObject({
      status: 'active',
      serviceId: 6,
      onetime: true,
      paymentMethodType: 'crypto',
    });
  });

  it('voids the order the customer cancelled on the payment page', async () => {
    const buyer = await signedInUser(app);
    const { url, invoice, plan } = await order(buyer);
    expect(await press(url, 'cancel')).toBe(`${app.config.appUrl}/en/order-v2?plan=${plan.id}`);
    expect(invoice.status).toBe('cancel');
    const rows = await ourRows(buyer.user.id);
    expect(rows.subscription).toBeUndefined();
    expect(rows.bills.map((bill) => bill.status)).toEqual(['void']);
    expect(
      (await shop.call(e.pendingPayment, { cookie: buyer.cookie })).data.crypto_approval_pending,
    ).toBe(false);
  });

  it('ends the period when Cryptomus has paid a refund back', async () => {
    const buyer = await signedInUser(app);
    const { url, invoice, plan } = await order(buyer);
    await press(url, 'pay');
    const sent = standIn.deliveries.length;
    await gateway.refund(invoice.uuid, { address: 'TDD97yguPESTpcrJMqU6h2ozZbibv4Vaqm' });
    // Cryptomus answers the refund at once and tells of its progress by webhook.
    await until(() => standIn.deliveries.length === sent + 2, 'the refund webhooks');
    expect(standIn.deliveries.slice(-2).map((delivery) => delivery.status)).toEqual([200, 200]);
    const rows = await ourRows(buyer.user.id);
    expect(rows.subscription).toMatchObject({ status: 'refunded' });
    expect(rows.bills).toEqual([
      expect.objectContaining({ status: 'paid', amountRefunded: plan.amount }),
    ]);
    const refunded = await app.db
      .select()
      .from(refunds)
      .where(eq(refunds.gatewayRef, `${invoice.uuid}:refund`));
    expect(refunded).toEqual([expect.objectContaining({ amount: plan.amount, currency: 'USD' })]);
  });
});
