import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { currentSubscriptionEndpoint } from '#shared/contracts/current-subscription.ts';
import { gatewayEvents, refunds, subscriptions } from '../../../db/schema/index.ts';
import type { App } from '../../../http/types.ts';
import { accessOf } from '../../../modules/billing/entitlement-sync.ts';
import { applyAnswer } from '../../../modules/billing/gateway-events.ts';
import { customerRefFor } from '../../../modules/billing/gateway-refs.ts';
import {
  type AppStoreStandin,
  type SentNotification,
  startAppStoreStandin,
} from '../../../test/appstore-standin/appstore-standin.ts';
import { jwsPayload, signJws } from '../../../test/appstore-standin/jws.ts';
import { createSigningChain } from '../../../test/appstore-standin/test-certificates.ts';
import { openShop } from '../../../test/billing-kit.ts';
import { createTestApp } from '../../../test/test-app.ts';
import { signedInUser, type TestSession } from '../../../test/test-sessions.ts';
import { GatewayRequestError } from '../gateway.ts';
import { type AppStoreGateway, createAppStoreGateway } from './appstore-gateway.ts';

// App Store notifications through our real webhook route, database and billing core: the
// stand-in buys as a customer's iPhone would and posts Apple-signed notifications V2, which
// our gateway verifies and answers with the subscription read back from the (stand-in's)
// App Store Server API.

const WEBHOOK = '/api/public/v1/webhooks/appstore';
const MONTHLY = 'com.shieldline.vpn.monthly';

let app: App;
let standin: AppStoreStandin;
let gateway: AppStoreGateway;
let call: Awaited<ReturnType<typeof openShop>>['call'];

async function post(body: string): Promise<number> {
  const response = await app.inject({
    method: 'POST',
    url: WEBHOOK,
    headers: { 'content-type': 'application/json' },
    payload: body,
  });
  return response.statusCode;
}

beforeAll(async () => {
  ({ app } = await createTestApp());
  ({ call } = await openShop(app));
  standin = await startAppStoreStandin({ deliver: post });
  gateway = createAppStoreGateway(standin.settings(), {
    log: app.log,
    appUrl: app.config.appUrl,
  });
  app.payments.add(gateway);
});
afterAll(() => standin?.close());

/** A signed-in customer with their app account token, as the app would fetch it. */
async function customer(): Promise<TestSession & { token: string }> {
  const session = await signedInUser(app);
  return { ...session, token: await customerRefFor(app, gateway, session.user) };
}

const detailOf = async (session: TestSession) =>
  (await call(billingEndpoints.subscription, { cookie: session.cookie })).data.subscription;
const invoicesOf = async (session: TestSession) =>
  (await call(billingEndpoints.invoices, { cookie: session.cookie })).data.items;
const rowOf = async (ref: string) =>
  (
    await app.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.gateway, 'appstore'), eq(subscriptions.gatewayRef, ref)))
  )[0];
const eventRows = (uuid: string) =>
  app.db
    .select()
    .from(gatewayEvents)
    .where(and(eq(gatewayEvents.gateway, 'appstore'), eq(gatewayEvents.eventRef, uuid)));

/** A notification's signedPayload re-signed after `change`, by `chain` (the stand-in's by default). */
function resigned(
  notification: SentNotification,
  change: (payload: Record<string, unknown>) => void,
  chain = standin.chain,
): string {
  const { signedPayload } = JSON.parse(notification.body) as { signedPayload: string };
  const payload = jwsPayload(signedPayload);
  change(payload);
  return JSON.stringify({ signedPayload: signJws(payload, chain.leafKeyPem, { x5c: chain.x5c }) });
}

describe('App Store notifications through our webhook', () => {
  it('a purchase in the app makes the current subscription: service 4, in-app, paid, VPN access', async () => {
    const buyer = await customer();
    const bought = await standin.purchase({ appAccountToken: buyer.token, productId: MONTHLY });
    expect(bought.notification).toMatchObject({ type: 'SUBSCRIBED', status: 200 });

    const current = await call(currentSubscriptionEndpoint, { cookie: buyer.cookie });
    expect(current.data.subscription).toEqual({
      status: 'active',
      service_id: 4,
      onetime: false,
      exists: true,
    });
    expect(await detailOf(buyer)).toMatchObject({
      plan: { name: '1 month', interval: 'month' },
      payment_method: { type: 'in_app', card: null },
      currency: 'USD',
      amount: 1299,
      cancel_at_period_end: false,
    });
    const [invoice] = await invoicesOf(buyer);
    expect(invoice).toMatchObject({ status: 'paid', total: 1299, amount_paid: 1299 });
    expect((await accessOf(app.db, buyer.user.id, new Date())).active).toBe(true);
    // Every notification is believed only after the API was asked.
    expect(standin.apiRequests).toContain(
      `/inApps/v1/subscriptions/${bought.originalTransactionId}`,
    );
  });

  it('a renewal moves the period on with a second paid invoice; auto-renew off cancels at period end', async () => {
    const buyer = await customer();
    const bought = await standin.purchase({ appAccountToken: buyer.token, productId: MONTHLY });
    const firstEnd = (await detailOf(buyer)).current_period_end;
    expect((await standin.renew(bought.originalTransactionId)).status).toBe(200);
    const renewed = await detailOf(buyer);
    expect(renewed.status).toBe('active');
    expect(Date.parse(renewed.current_period_end ?? '')).toBeGreaterThan(
      Date.parse(firstEnd ?? ''),
    );
    expect((await invoicesOf(buyer)).map((each) => each.status)).toEqual(['paid', 'paid']);

    await standin.setAutoRenew(bought.originalTransactionId, false);
    expect(await detailOf(buyer)).toMatchObject({ status: 'canceled', cancel_at_period_end: true });
    await standin.setAutoRenew(bought.originalTransactionId, true);
    expect(await detailOf(buyer)).toMatchObject({ status: 'active', cancel_at_period_end: false });
  });

  it('a failed renewal puts it on hold, a recovery makes it active, an expiry ends it', async () => {
    const buyer = await customer();
    const bought = await standin.purchase({ appAccountToken: buyer.token, productId: MONTHLY });
    await standin.failToRenew(bought.originalTransactionId, { grace: true });
    expect((await detailOf(buyer)).status).toBe('on_hold');
    await standin.renew(bought.originalTransactionId);
    expect((await detailOf(buyer)).status).toBe('active');
    await standin.failToRenew(bought.originalTransactionId);
    await standin.expire(bought.originalTransactionId);
    expect((await rowOf(bought.originalTransactionId))?.status).toBe('expired');
  });

  it('a refund by Apple makes it refunded, records the refund and takes access back', async () => {
    const buyer = await customer();
    const bought = await standin.purchase({ appAccountToken: buyer.token, productId: MONTHLY });
    expect((await standin.refund(bought.transactionId)).status).toBe(200);
    expect((await rowOf(bought.originalTransactionId))?.status).toBe('refunded');
    const [invoice] = await invoicesOf(buyer);
    expect(invoice).toMatchObject({ status: 'paid', amount_refunded: 1299 });
    const refunded = await app.db
      .select()
      .from(refunds)
      .where(
        and(
          eq(refunds.gateway, 'appstore'),
          eq(refunds.gatewayRef, `refund-${bought.transactionId}`),
        ),
      );
    expect(refunded).toHaveLength(1);
    expect((await accessOf(app.db, buyer.user.id, new Date())).active).toBe(false);
  });

  it('refuses forged, tampered, foreign and malformed notifications with 400, changing nothing', async () => {
    const buyer = await customer();
    standin.holdNotifications = true;
    const bought = await standin.purchase({ appAccountToken: buyer.token, productId: MONTHLY });
    standin.holdNotifications = false;
    const genuine = bought.notification;

    const forger = createSigningChain({ name: 'Forger' });
    expect(await post(resigned(genuine, () => {}, forger))).toBe(400);
    const { signedPayload } = JSON.parse(genuine.body) as { signedPayload: string };
    const [head, , signature] = signedPayload.split('.');
    const changed = { ...jwsPayload(signedPayload), notificationUUID: randomUUID() };
    const tampered = `${head}.${Buffer.from(JSON.stringify(changed)).toString('base64url')}.${signature}`;
    expect(await post(JSON.stringify({ signedPayload: tampered }))).toBe(400);
    const foreign = resigned(genuine, (payload) => {
      (payload.data as Record<string, unknown>).bundleId = 'com.example.other';
    });
    expect(await post(foreign)).toBe(400);
    expect(await post('{"signedPayload": 42}')).toBe(400);
    expect(await post('not json')).toBe(400);

    expect(await rowOf(bought.originalTransactionId)).toBeUndefined();
    expect(await eventRows(genuine.uuid)).toHaveLength(0);
    // The genuine one still works afterwards.
    expect(await standin.deliver(genuine)).toBe(200);
    expect((await rowOf(bought.originalTransactionId))?.status).toBe('active');
  });

  it('a replayed notification answers 200 and changes nothing', async () => {
    const buyer = await customer();
    const bought = await standin.purchase({ appAccountToken: buyer.token, productId: MONTHLY });
    const before = await rowOf(bought.originalTransactionId);
    expect(await standin.deliver(bought.notification)).toBe(200);
    expect(await rowOf(bought.originalTransactionId)).toEqual(before);
    expect(await eventRows(bought.notification.uuid)).toHaveLength(1);
  });

  it('notifications arriving in reverse order converge to what Apple holds', async () => {
    const buyer = await customer();
    standin.holdNotifications = true;
    const bought = await standin.purchase({ appAccountToken: buyer.token, productId: MONTHLY });
    const renewed = await standin.renew(bought.originalTransactionId);
    const off = await standin.setAutoRenew(bought.originalTransactionId, false);
    standin.holdNotifications = false;
    for (const notification of [off, renewed, bought.notification]) {
      expect(await standin.deliver(notification)).toBe(200);
    }
    const latest = standin.store.latest(
      standin.store.subscriptions.get(bought.originalTransactionId) ?? ({} as never),
    );
    const detail = await detailOf(buyer);
    expect(detail).toMatchObject({ status: 'canceled', cancel_at_period_end: true });
    expect(Date.parse(detail.current_period_end ?? '')).toBe(latest.expiresDate);
    expect(await invoicesOf(buyer)).toHaveLength(2);
  });

  it('answers 5xx while the App Store cannot be read, so Apple sends it again', async () => {
    const buyer = await customer();
    const unreachable = createAppStoreGateway(
      { ...standin.settings(), apiUrl: 'http://127.0.0.1:9' },
      { log: app.log, appUrl: app.config.appUrl },
    );
    app.payments.add(unreachable);
    let notification: SentNotification;
    try {
      notification = (await standin.purchase({ appAccountToken: buyer.token, productId: MONTHLY }))
        .notification;
      expect(notification.status).toBeGreaterThanOrEqual(500);
    } finally {
      app.payments.add(gateway);
    }
    expect(await standin.deliver(notification)).toBe(200);
    expect((await detailOf(buyer)).status).toBe('active');
  });
});

describe('restore purchases', () => {
  it('takes back this user’s subscriptions from the app’s signed transactions', async () => {
    const buyer = await customer();
    const stranger = await customer();
    standin.holdNotifications = true;
    const mine = await standin.purchase({ appAccountToken: buyer.token, productId: MONTHLY });
    const theirs = await standin.purchase({
      appAccountToken: stranger.token,
      productId: 'com.shieldline.vpn.yearly',
    });
    standin.holdNotifications = false;

    const outcome = await gateway.restorePurchases({
      appAccountToken: buyer.token,
      signedTransactions: [mine.signedTransaction, theirs.signedTransaction],
    });
    expect(outcome.refused).toEqual([
      { originalTransactionId: theirs.originalTransactionId, reason: 'other_account' },
    ]);
    expect(outcome.restored).toHaveLength(1);
    const [restored] = outcome.restored;
    expect(restored?.subscription).toMatchObject({
      ref: mine.originalTransactionId,
      customerRef: buyer.token,
      status: 'active',
    });
    if (restored) await applyAnswer(app, gateway, restored);
    expect(await detailOf(buyer)).toMatchObject({
      status: 'active',
      service_id: 4,
      payment_method: { type: 'in_app' },
    });
    expect(await rowOf(theirs.originalTransactionId)).toBeUndefined();
  });

  it('refuses the whole batch when one transaction is not Apple’s', async () => {
    const buyer = await customer();
    const bought = await standin.purchase({ appAccountToken: buyer.token, productId: MONTHLY });
    const forger = createSigningChain({ name: 'Forger' });
    const forged = signJws(jwsPayload(bought.signedTransaction), forger.leafKeyPem, {
      x5c: forger.x5c,
    });
    const restore = gateway.restorePurchases({
      appAccountToken: buyer.token,
      signedTransactions: [bought.signedTransaction, forged],
    });
    await expect(restore).rejects.toBeInstanceOf(GatewayRequestError);
    await expect(restore).rejects.toMatchObject({ kind: 'invalid_request' });
  });
});

describe('what the App Store keeps for itself', () => {
  it('sells nowhere on our pages and refuses the actions the customer takes at Apple', async () => {
    expect(gateway).toMatchObject({
      serviceId: 4,
      paymentMethodType: 'in_app',
      cards: null,
      checkoutStyle: { checkout: 'none', tokenizeUrl: null, googlePay: false, applePay: false },
    });
    const token = await gateway.ensureCustomer({ userId: 1, email: 'a@example.com', name: 'A' });
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    const price = {
      productId: 7,
      name: '1 month',
      amount: 1299,
      currency: 'USD',
      interval: 'month' as const,
      intervalCount: 1,
      onetime: false,
    };
    expect(await gateway.ensurePrice({ ...price, ref: MONTHLY })).toBe(MONTHLY);
    await expect(gateway.ensurePrice({ ...price, ref: null })).rejects.toMatchObject({
      kind: 'invalid_request',
    });
    await expect(gateway.cancel('1', { atPeriodEnd: true })).rejects.toThrow(/Apple ID settings/);
    for (const refused of [
      gateway.refund('1', {}),
      gateway.pause('1'),
      gateway.payInvoice('1', { idempotencyKey: 'k' }),
    ]) {
      await expect(refused).rejects.toMatchObject({ kind: 'invalid_state' });
    }
    expect(await gateway.fetchSubscription('2000000000000009')).toBeNull();
    const buyer = await customer();
    const bought = await standin.purchase({ appAccountToken: buyer.token, productId: MONTHLY });
    expect(await gateway.fetchSubscription(bought.originalTransactionId)).toMatchObject({
      status: 'active',
      customerRef: buyer.token,
    });
    expect(await gateway.fetchInvoice(bought.transactionId)).toMatchObject({
      status: 'paid',
      total: 1299,
    });
  });
});
