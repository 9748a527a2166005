import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CryptomusStandIn,
  startCryptomusStandIn,
} from '../../../test/cryptomus-standin/cryptomus-standin.ts';
import { moscowTime } from '../../../test/cryptomus-standin/standin-invoices.ts';
import { silentLogger } from '../../../test/silent-logger.ts';
import {
  type GatewayPrice,
  GatewayRequestError,
  GatewayUnavailable,
  type StartSubscriptionInput,
} from '../gateway.ts';
import { orderIdFor } from './cryptomus-checkout.ts';
import { createCryptomusClient } from './cryptomus-client.ts';
import { type CryptomusGateway, createCryptomusGateway } from './cryptomus-gateway.ts';
import { cryptomusDate } from './cryptomus-list.ts';

// Our client and adapter talking over real HTTP to the local Cryptomus: the requests it
// accepts (signed, valid), the answers' shapes, and the errors mapped for the caller.

const MERCHANT = '8b03432e-385b-4670-8d06-064591096795';
const KEY = 'payment-key-for-the-stand-in-0123456789';
const APP_URL = 'https://vpn.example';
const DAY_MS = 86_400_000;

const MONTH: GatewayPrice = {
  productId: 61,
  ref: null,
  name: '1 month',
  amount: 1299,
  currency: 'USD',
  interval: 'month',
  intervalCount: 1,
  onetime: true,
};

let standIn: CryptomusStandIn;
let gateway: CryptomusGateway;
let orders = 0;

beforeAll(async () => {
  // Webhooks are the app's business (cryptomus-webhooks.test.ts): here they go nowhere.
  standIn = await startCryptomusStandIn({
    merchantId: MERCHANT,
    paymentKey: KEY,
    perPage: 2,
    deliver: async () => 200,
  });
  gateway = createCryptomusGateway(
    { merchantId: MERCHANT, paymentKey: KEY, apiUrl: standIn.url },
    { log: silentLogger, appUrl: APP_URL },
  );
});
afterAll(() => standIn.close());

function order(overrides: Partial<StartSubscriptionInput> = {}): StartSubscriptionInput {
  orders += 1;
  return {
    customerRef: 'user-7',
    items: [MONTH],
    discount: null,
    paymentToken: null,
    paymentMethodRef: null,
    returnUrl: `${APP_URL}/en/order-received/thanks`,
    cancelUrl: `${APP_URL}/en/order-v2?plan=61`,
    idempotencyKey: `checkout:7:${orders}-${Date.now()}`,
    metadata: { userId: '7', kind: 'new' },
    ...overrides,
  };
}

async function invoiceOf(input: StartSubscriptionInput) {
  const outcome = await gateway.startSubscription(input);
  if (outcome.kind !== 'redirect') throw new Error('expected the payment page');
  const invoice = standIn.find({ order_id: orderIdFor(input.idempotencyKey) });
  if (!invoice) throw new Error('the stand-in made no invoice');
  return { outcome, invoice };
}

describe('the Cryptomus adapter over HTTP', () => {
  it('makes one invoice per order, on the hosted page, with what the snapshots need', async () => {
    const input = order({
      discount: { code: 'SPRING', percentOff: 20, amountOff: null, periods: 1 },
    });
    const { outcome, invoice } = await invoiceOf(input);
    expect(outcome).toEqual({ kind: 'redirect', url: invoice.url, subscription: null });
    expect(invoice.url).toBe(`${standIn.url}/pay/${invoice.uuid}`);
    expect(invoice).toMatchObject({
      amount: '10.39',
      currency: 'USD',
      status: 'check',
      url_success: input.returnUrl,
      url_return: input.cancelUrl,
      url_callback: `${APP_URL}/api/public/v1/webhooks/cryptomus`,
    });
    expect(JSON.parse(invoice.additional_data ?? '')).toEqual({
      u: '7',
      k: 'new',
      i: 'month',
      n: 1,
      d: 'SPRING',
      l: [[61, 1299, '1 month']],
    });
    // The same order again (a double click, a retry): the same invoice, not a second one.
    const again = await gateway.startSubscription(input);
    expect(again).toEqual(outcome);
    expect(standIn.find({ order_id: invoice.order_id })?.uuid).toBe(invoice.uuid);
  });

  it('sells one-time products only', async () => {
    const renewing = { ...MONTH, onetime: false };
    await expect(gateway.ensurePrice(renewing)).rejects.toMatchObject({ kind: 'invalid_request' });
    await expect(gateway.startSubscription(order({ items: [renewing] }))).rejects.toBeInstanceOf(
      GatewayRequestError,
    );
    expect(await gateway.ensurePrice(MONTH)).toBe('61');
    expect(await gateway.ensureCustomer({ userId: 7, email: 'a@b.c', name: 'A' })).toBe('user-7');
  });

  it('grants nothing while a payment waits or confirms, then a one-time period once paid', async () => {
    const { invoice } = await invoiceOf(order());
    expect(await gateway.fetchSubscription(invoice.order_id)).toBeNull();
    expect(await gateway.fetchInvoice(invoice.uuid)).toMatchObject({
      status: 'finalizing',
      subscriptionRef: invoice.order_id,
      customerRef: 'user-7',
      total: 1299,
    });
    await standIn.setStatus(invoice.uuid, 'confirm_check');
    expect(await gateway.fetchSubscription(invoice.order_id)).toBeNull();
    // Paid but not final yet is not paid for us.
    await standIn.setStatus(invoice.uuid, 'paid', { isFinal: false });
    expect(await gateway.fetchSubscription(invoice.order_id)).toBeNull();
    expect((await gateway.fetchInvoice(invoice.uuid))?.status).toBe('finalizing');

    await standIn.setStatus(invoice.uuid, 'paid');
    const subscription = await gateway.fetchSubscription(invoice.order_id);
    const start = subscription?.currentPeriodStart as Date;
    expect(subscription).toMatchObject({
      ref: invoice.order_id,
      customerRef: 'user-7',
      status: 'active',
      onetime: true,
      paymentMethodType: 'crypto',
      items: [{ productId: 61, priceRef: '61', amount: 1299, quantity: 1 }],
      metadata: { userId: '7', kind: 'new' },
    });
    expect(Math.abs(start.getTime() - Date.now())).toBeLessThan(5_000);
    const end = subscription?.currentPeriodEnd as Date;
    expect(end.getUTCMonth()).toBe((start.getUTCMonth() + 1) % 12);
    expect(await gateway.fetchInvoice(invoice.uuid)).toMatchObject({
      status: 'paid',
      amountPaid: 1299,
      periodEnd: end,
    });
  });

  it('answers a period that has run out as expired', async () => {
    const { invoice } = await invoiceOf(order());
    await standIn.setStatus(invoice.uuid, 'paid');
    // Paid (and last changed) 40 days ago: the period runs from the invoice's creation.
    invoice.created_at = moscowTime(new Date(Date.now() - 40 * DAY_MS));
    invoice.updated_at = moscowTime(new Date(Date.now() - 40 * DAY_MS));
    const subscription = await gateway.fetchSubscription(invoice.order_id);
    expect(subscription).toMatchObject({ status: 'expired' });
    expect(subscription?.endedAt).toEqual(subscription?.currentPeriodEnd);
  });

  it('voids an invoice the customer cancelled or underpaid, with no subscription', async () => {
    const cancelled = (await invoiceOf(order())).invoice;
    await standIn.setStatus(cancelled.uuid, 'cancel');
    expect(await gateway.fetchInvoice(cancelled.uuid)).toMatchObject({ status: 'void' });
    expect(await gateway.fetchSubscription(cancelled.order_id)).toBeNull();
    const short = (await invoiceOf(order())).invoice;
    await standIn.setStatus(short.uuid, 'wrong_amount');
    expect(await gateway.fetchInvoice(short.uuid)).toMatchObject({
      status: 'void',
      lastFailure: 'wrong_amount',
    });
  });

  it('refunds a paid invoice whole, to the address given', async () => {
    const { invoice } = await invoiceOf(order());
    await expect(gateway.refund(invoice.uuid, {})).rejects.toMatchObject({
      kind: 'invalid_request',
    });
    const withAddress = { address: 'TDD97yguPESTpcrJMqU6h2ozZbibv4Vaqm' };
    await expect(gateway.refund(invoice.uuid, withAddress)).rejects.toMatchObject({
      kind: 'invalid_state',
    });
    await standIn.setStatus(invoice.uuid, 'paid');
    await expect(
      gateway.refund(invoice.uuid, { ...withAddress, amount: 100 }),
    ).rejects.toMatchObject({ kind: 'invalid_request' });
    const refund = await gateway.refund(invoice.uuid, { ...withAddress, reason: 'asked' });
    expect(refund).toMatchObject({ paymentRef: invoice.uuid, amount: 1299, currency: 'USD' });
    expect(standIn.find({ uuid: invoice.uuid })?.status).toBe('refund_paid');
    expect(await gateway.fetchSubscription(invoice.order_id)).toMatchObject({
      status: 'refunded',
    });
    expect(await gateway.fetchInvoice(invoice.uuid)).toMatchObject({ amountRefunded: 1299 });
  });

  it('lets a paid period be set to run out (and back), and refuses what crypto cannot do', async () => {
    const { invoice } = await invoiceOf(order());
    await expect(gateway.cancel(invoice.order_id, { atPeriodEnd: true })).rejects.toMatchObject({
      kind: 'not_found',
    });
    await standIn.setStatus(invoice.uuid, 'paid');
    expect(await gateway.cancel(invoice.order_id, { atPeriodEnd: true })).toMatchObject({
      status: 'canceled',
      cancelAtPeriodEnd: true,
    });
    expect(await gateway.resume(invoice.order_id)).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: false,
    });
    for (const refused of [
      gateway.cancel(invoice.order_id, { atPeriodEnd: false }),
      gateway.pause(invoice.order_id),
      gateway.unpause(invoice.order_id),
      gateway.payInvoice(invoice.uuid, { idempotencyKey: 'k' }),
      gateway.endForNonPayment(invoice.order_id),
      gateway.changePlan({
        subscriptionRef: invoice.order_id,
        items: [MONTH],
        idempotencyKey: 'k',
      }),
    ]) {
      await expect(refused).rejects.toMatchObject({ kind: 'invalid_state' });
    }
  });

  it('lists the paid orders that changed since a time, page by page', async () => {
    const since = new Date(Date.now() - 1000);
    const paid = [];
    for (let n = 0; n < 3; n += 1) {
      const { invoice } = await invoiceOf(order());
      await standIn.setStatus(invoice.uuid, 'paid');
      paid.push(invoice.order_id);
    }
    const unpaid = (await invoiceOf(order())).invoice.order_id;
    const listed = [];
    for await (const subscription of gateway.listSubscriptions?.(since) ?? []) {
      listed.push(subscription.ref);
    }
    expect(listed).toEqual(expect.arrayContaining(paid));
    // An unpaid order has no subscription; one that changed long ago is not read again.
    expect(listed).not.toContain(unpaid);
    expect(cryptomusDate(new Date('2026-05-04T21:30:00Z'))).toBe('2026-05-05 00:30:00');
  });

  it('maps refusals and outages for the caller', async () => {
    expect(await gateway.fetchInvoice('00000000-0000-0000-0000-000000000000')).toBeNull();
    expect(await gateway.fetchSubscription('vpn-unknown')).toBeNull();
    standIn.failInfoCalls(1);
    await expect(gateway.fetchInvoice('anything')).rejects.toBeInstanceOf(GatewayUnavailable);
    const wrongKey = createCryptomusGateway(
      { merchantId: MERCHANT, paymentKey: `${KEY}-old`, apiUrl: standIn.url },
      { log: silentLogger, appUrl: APP_URL },
    );
    await expect(wrongKey.fetchInvoice('anything')).rejects.toBeInstanceOf(GatewayUnavailable);
    const nowhere = createCryptomusGateway(
      { merchantId: MERCHANT, paymentKey: KEY, apiUrl: 'http://127.0.0.1:9' },
      { log: silentLogger, appUrl: APP_URL },
    );
    await expect(nowhere.fetchInvoice('anything')).rejects.toBeInstanceOf(GatewayUnavailable);
    const client = createCryptomusClient({
      merchantId: MERCHANT,
      paymentKey: KEY,
      apiUrl: standIn.url,
    });
    await expect(
      client.call('/v1/payment', { amount: '1.00', currency: 'USD', order_id: 'has spaces' }),
    ).rejects.toMatchObject({
      kind: 'invalid_request',
      message: expect.stringContaining('order_id'),
    });
  });
});
