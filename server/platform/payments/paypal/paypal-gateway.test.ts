import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayPalSettings } from '#shared/billing/gateway-settings.ts';
import {
  type Delivery,
  type PayPalStandIn,
  startPayPalStandIn,
} from '../../../test/paypal-standin/paypal-standin.ts';
import {
  type GatewayEvent,
  type GatewayPrice,
  GatewayRequestError,
  GatewayUnavailable,
  type PaymentGateway,
} from '../gateway.ts';
import { createPayPalGateway } from './paypal-gateway.ts';

// The adapter over the official SDK, talking real HTTP to the PayPal stand-in: plans,
// subscriptions through the approval link, suspend/activate/cancel, refunds, and the
// webhooks PayPal sends for each, verified and read back.

const CREDENTIALS = { clientId: 'AZ-test-client', clientSecret: 'EC-test-secret' };
const WEBHOOK_ID = '8PT597110X687430LKGECATA';
const APP_URL = 'https://vpn.example.test';
const PLAN: GatewayPrice = {
  productId: 7,
  ref: null,
  name: 'VPN 1 month',
  amount: 1299,
  currency: 'USD',
  interval: 'month',
  intervalCount: 1,
  onetime: false,
};
const ADDON: GatewayPrice = { ...PLAN, productId: 8, name: 'Dedicated IP', amount: 399 };

let standIn: PayPalStandIn;
let gateway: PaymentGateway;
let settings: PayPalSettings;
const events: GatewayEvent[] = [];

beforeAll(async () => {
  standIn = await startPayPalStandIn({
    ...CREDENTIALS,
    webhookId: WEBHOOK_ID,
    // Each webhook through the adapter's own check and read-back, as our route does.
    deliver: async (headers, body) => {
      events.push(...(await gateway.verifyWebhook(Buffer.from(body), headers)));
      return 200;
    },
  });
  settings = {
    ...CREDENTIALS,
    webhookId: WEBHOOK_ID,
    environment: 'sandbox',
    apiUrl: standIn.origin,
  };
  gateway = createPayPalGateway(settings, { log: pino({ level: 'silent' }), appUrl: APP_URL });
});

afterAll(() => standIn.close());

/** Subscribes user `userId` and approves at PayPal; answers the subscription id. */
async function subscribed(userId: number, items: GatewayPrice[] = [PLAN]) {
  const priced = [];
  for (const item of items) priced.push({ ...item, ref: await gateway.ensurePrice(item) });
  const outcome = await gateway.startSubscription({
    customerRef: await gateway.ensureCustomer({ userId, email: 'a@b.c', name: 'A' }),
    items: priced,
    discount: null,
    paymentToken: null,
    paymentMethodRef: null,
    returnUrl: `${APP_URL}/en/order-received/thanks`,
    cancelUrl: `${APP_URL}/en/order-v2`,
    idempotencyKey: `checkout:${userId}:key`,
    metadata: { userId: String(userId) },
  });
  if (outcome.kind !== 'redirect') throw new Error(`expected a redirect, got ${outcome.kind}`);
  const id = new URL(outcome.url).searchParams.get('ba_token')
    ? [...standIn.books.subscriptions.values()].find((each) =>
        outcome.url.endsWith(each.internal.baToken),
      )?.id
    : undefined;
  if (!id) throw new Error('no subscription behind the approval link');
  await standIn.approve(id);
  return { id, url: outcome.url };
}

const delivered = (type: string): Delivery[] => standIn.deliveries.filter((d) => d.type === type);
const eventsOf = (ref: string) => events.filter((event) => event.subscription?.ref === ref);

describe('plans', () => {
  it('makes a product’s plan once and reuses it while its price holds', async () => {
    const ref = await gateway.ensurePrice(PLAN);
    expect(ref).toMatch(/^P-/);
    expect(await gateway.ensurePrice({ ...PLAN, ref })).toBe(ref);
    const raised = await gateway.ensurePrice({ ...PLAN, ref, amount: 1499 });
    expect(raised).not.toBe(ref);
    expect(standIn.books.plans.get(raised)?.billing_cycles[0]?.pricing_scheme.fixed_price).toEqual({
      currency_code: 'USD',
      value: '14.99',
    });
    expect(standIn.books.products.size).toBe(1);
  });

  it('refuses what PayPal cannot sell as a plan', async () => {
    await expect(gateway.ensurePrice({ ...PLAN, onetime: true })).rejects.toMatchObject({
      kind: 'invalid_request',
    });
    await expect(
      gateway.ensurePrice({ ...PLAN, interval: 'year', intervalCount: 2 }),
    ).rejects.toBeInstanceOf(GatewayRequestError);
  });
});

describe('subscribing through the approval link', () => {
  it('answers the approval link, one subscription per idempotency key', async () => {
    const item = { ...PLAN, ref: await gateway.ensurePrice(PLAN) };
    const input = {
      customerRef: 'user-900',
      items: [item],
      discount: null,
      paymentToken: null,
      paymentMethodRef: null,
      returnUrl: `${APP_URL}/en/order-received/thanks`,
      cancelUrl: `${APP_URL}/en/order-v2`,
      idempotencyKey: 'checkout:900:same',
      metadata: { userId: '900' },
    };
    const first = await gateway.startSubscription(input);
    const again = await gateway.startSubscription(input);
    expect(first).toMatchObject({ kind: 'redirect', subscription: null });
    expect(again).toEqual(first);
    if (first.kind !== 'redirect') return;
    expect(first.url).toMatch(
      new RegExp(`^${standIn.origin}/webapps/billing/subscriptions\\?ba_token=BA-`),
    );
    const page = await fetch(first.url);
    const html = await page.text();
    expect(html).toContain('>Approve</button>');
    expect(html).toContain('>Cancel</button>');
    expect(html).toContain('12.99 USD');
  });

  it('refuses a coupon: a PayPal plan has one price for every subscriber', async () => {
    await expect(
      gateway.startSubscription({
        customerRef: 'user-901',
        items: [{ ...PLAN, ref: await gateway.ensurePrice(PLAN) }],
        discount: { code: 'SPRING', percentOff: 20, amountOff: null, periods: 1 },
        paymentToken: null,
        paymentMethodRef: null,
        returnUrl: `${APP_URL}/r`,
        cancelUrl: `${APP_URL}/c`,
        idempotencyKey: 'checkout:901:coupon',
        metadata: { userId: '901' },
      }),
    ).rejects.toMatchObject({ kind: 'invalid_request', message: /coupon/ });
  });

  it('is active once approved, with the first payment as a paid invoice', async () => {
    const { id } = await subscribed(1);
    const subscription = await gateway.fetchSubscription(id);
    expect(subscription).toMatchObject({
      ref: id,
      customerRef: 'user-1',
      status: 'active',
      paymentMethodType: 'paypal',
      currency: 'USD',
      cancelAtPeriodEnd: false,
      metadata: { userId: '1' },
      items: [{ priceRef: expect.stringMatching(/^P-/), quantity: 1, amount: 1299 }],
    });
    const start = subscription?.currentPeriodStart?.getTime() ?? 0;
    const end = subscription?.currentPeriodEnd?.getTime() ?? 0;
    expect((end - start) / 86_400_000).toBeGreaterThanOrEqual(28);
    // ACTIVATED, then the sale: each verified and read back into snapshots.
    const activated = eventsOf(id).find((event) => event.type === 'BILLING.SUBSCRIPTION.ACTIVATED');
    const sale = eventsOf(id).find((event) => event.type === 'PAYMENT.SALE.COMPLETED');
    expect(activated?.subscription?.status).toBe('active');
    expect(sale?.invoice).toMatchObject({
      subscriptionRef: id,
      status: 'paid',
      reason: 'subscription_create',
      total: 1299,
      amountPaid: 1299,
      lines: [{ amount: 1299, proration: false }],
    });
    expect(sale?.payment).toMatchObject({ status: 'succeeded', amount: 1299 });
    expect(await gateway.fetchInvoice(sale?.invoice?.ref ?? '')).toMatchObject({ status: 'paid' });
  });

  it('bills the plan and its addons as one PayPal subscription, both named back', async () => {
    const { id } = await subscribed(2, [PLAN, ADDON]);
    const subscription = await gateway.fetchSubscription(id);
    expect(subscription?.items.map((item) => item.amount)).toEqual([1299, 399]);
    const sale = eventsOf(id).find((event) => event.type === 'PAYMENT.SALE.COMPLETED');
    expect(sale?.invoice?.total).toBe(1698);
    expect(sale?.invoice?.lines).toHaveLength(2);
  });
});

describe('actions on a running subscription', () => {
  it('pauses (suspend) and continues (activate), each once', async () => {
    const { id } = await subscribed(3);
    const paused = await gateway.pause(id);
    expect(paused).toMatchObject({ status: 'paused', pausedAt: expect.any(Date) });
    expect((await gateway.pause(id)).status).toBe('paused');
    expect(delivered('BILLING.SUBSCRIPTION.SUSPENDED')).toHaveLength(1);
    const again = await gateway.unpause(id);
    expect(again).toMatchObject({ status: 'active', pausedAt: null });
    expect((await gateway.unpause(id)).status).toBe('active');
  });

  it('cancels at period end: canceled until the paid period ends, and cannot resume', async () => {
    const { id } = await subscribed(4);
    const before = await gateway.fetchSubscription(id);
    const canceled = await gateway.cancel(id, { atPeriodEnd: true });
    expect(canceled).toMatchObject({
      status: 'canceled',
      cancelAtPeriodEnd: true,
      currentPeriodEnd: before?.currentPeriodEnd,
      endedAt: null,
    });
    await expect(gateway.resume(id)).rejects.toMatchObject({ kind: 'invalid_state' });
    await expect(gateway.pause(id)).rejects.toMatchObject({ kind: 'invalid_state' });
    // Asking again changes nothing.
    expect((await gateway.cancel(id, { atPeriodEnd: true })).status).toBe('canceled');
  });

  it('ends at once when not at period end, and for non-payment as failed', async () => {
    const now = await subscribed(5);
    expect(await gateway.cancel(now.id, { atPeriodEnd: false })).toMatchObject({
      status: 'expired',
      endedAt: expect.any(Date),
    });
    const unpaid = await subscribed(6);
    expect((await gateway.endForNonPayment(unpaid.id)).status).toBe('failed');
  });

  it('goes on hold when a renewal fails, active again when PayPal collects', async () => {
    const { id } = await subscribed(7);
    await standIn.renew(id, 'failed');
    expect((await gateway.fetchSubscription(id))?.status).toBe('on_hold');
    const failed = eventsOf(id).find((e) => e.type === 'BILLING.SUBSCRIPTION.PAYMENT.FAILED');
    expect(failed?.subscription?.status).toBe('on_hold');
    await standIn.renew(id, 'paid');
    expect((await gateway.fetchSubscription(id))?.status).toBe('active');
    const sales = eventsOf(id).filter((e) => e.type === 'PAYMENT.SALE.COMPLETED');
    expect(sales.map((e) => e.invoice?.reason)).toEqual([
      'subscription_create',
      'subscription_cycle',
    ]);
  });

  it('is on hold, not paused, when PayPal suspends it for failed payments', async () => {
    const { id } = await subscribed(8);
    for (let i = 0; i < 3; i += 1) await standIn.renew(id, 'failed');
    expect(standIn.books.subscriptions.get(id)?.status).toBe('SUSPENDED');
    expect((await gateway.fetchSubscription(id))?.status).toBe('on_hold');
  });

  it('has no invoices to collect nor plan changes of its own', async () => {
    await expect(gateway.payInvoice('X', { idempotencyKey: 'k' })).rejects.toMatchObject({
      kind: 'invalid_state',
    });
  });
});

describe('refunds', () => {
  it('gives back part, then the rest, never more', async () => {
    const { id } = await subscribed(9);
    const sale = eventsOf(id).find((e) => e.type === 'PAYMENT.SALE.COMPLETED');
    const paymentRef = sale?.payment?.ref ?? '';
    const part = await gateway.refund(paymentRef, { amount: 300, reason: 'goodwill' });
    expect(part).toMatchObject({
      paymentRef,
      invoiceRef: paymentRef,
      amount: 300,
      currency: 'USD',
      reason: 'goodwill',
    });
    const rest = await gateway.refund(paymentRef, {});
    expect(rest.amount).toBe(999);
    await expect(gateway.refund(paymentRef, { amount: 1 })).rejects.toMatchObject({
      kind: 'invalid_state',
    });
    const refunds = events.filter((e) => e.type === 'PAYMENT.SALE.REFUNDED');
    expect(refunds.map((e) => e.refund?.ref)).toEqual(expect.arrayContaining([part.ref, rest.ref]));
    // The subscription's next read tells the payment is refunded in full.
    await gateway.fetchSubscription(id);
    expect(await gateway.fetchInvoice(paymentRef)).toMatchObject({ amountRefunded: 1299 });
  });

  it('keeps a partial refund when the payment is read again from the list', async () => {
    const { id } = await subscribed(12);
    const sale = eventsOf(id).find((e) => e.type === 'PAYMENT.SALE.COMPLETED');
    const paymentRef = sale?.payment?.ref ?? '';
    await gateway.refund(paymentRef, { amount: 300, reason: 'goodwill' });
    const before = Date.now();
    await gateway.fetchSubscription(id);
    const invoice = await gateway.fetchInvoice(paymentRef);
    // PayPal's list says only PARTIALLY_REFUNDED; the refund told how much.
    expect(invoice).toMatchObject({ status: 'paid', amountPaid: 1299, amountRefunded: 300 });
    // Stamped with the time of this read, not the payment's.
    expect(invoice?.updatedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const refundEvent = events.find(
      (e) => e.type === 'PAYMENT.SALE.REFUNDED' && e.refund?.paymentRef === paymentRef,
    );
    expect(refundEvent?.refund?.amount).toBe(300);
  });

  it('refunds once when the same refund is asked again (a retry)', async () => {
    const { id } = await subscribed(13);
    const sale = eventsOf(id).find((e) => e.type === 'PAYMENT.SALE.COMPLETED');
    const paymentRef = sale?.payment?.ref ?? '';
    const first = await gateway.refund(paymentRef, { amount: 200, reason: 'outage' });
    const retried = await gateway.refund(paymentRef, { amount: 200, reason: 'outage' });
    expect(retried.ref).toBe(first.ref);
    expect(standIn.books.captures.get(paymentRef)?.refunded).toBe(200);
    // Another amount or reason is another refund.
    const other = await gateway.refund(paymentRef, { amount: 200, reason: 'outage, again' });
    expect(other.ref).not.toBe(first.ref);
    expect(standIn.books.captures.get(paymentRef)?.refunded).toBe(400);
  });
});

describe('PayPal’s failures in our terms', () => {
  it('answers not found for what PayPal does not know', async () => {
    expect(await gateway.fetchSubscription('I-NOSUCHTHING1')).toBeNull();
    await expect(gateway.refund('NOSUCHCAPTURE0001', {})).rejects.toMatchObject({
      kind: 'not_found',
    });
  });

  it('refuses wrong credentials without telling them', async () => {
    const wrong = createPayPalGateway(
      { ...settings, clientSecret: 'not-the-secret' },
      { log: pino({ level: 'silent' }), appUrl: APP_URL },
    );
    const error = await wrong.fetchSubscription('I-ANY').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayRequestError);
    expect(String((error as Error).message)).not.toContain('not-the-secret');
  });

  it('is unavailable when PayPal cannot be reached', async () => {
    const away = createPayPalGateway(
      { ...settings, apiUrl: 'http://127.0.0.1:9' },
      { log: pino({ level: 'silent' }), appUrl: APP_URL },
    );
    await expect(away.fetchSubscription('I-ANY')).rejects.toBeInstanceOf(GatewayUnavailable);
  });
});
