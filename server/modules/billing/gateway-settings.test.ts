import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { gatewaySettingsEndpoints } from '#shared/contracts/admin/payment-gateways.ts';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { auditLog, gatewaySettings } from '../../db/schema/index.ts';
import { endpointClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { sessionFor } from '../../test/test-sessions.ts';
import { createUser } from '../../test/test-users.ts';
import { seedDemoCatalog } from './demo-catalog.ts';

const e = gatewaySettingsEndpoints;
const STRIPE_KEY = 'sk_test_51Secret0123456789';

describe('gateway keys from the environment', () => {
  it('reads a whole set, and turns a gateway without keys off', () => {
    const config = loadConfig({
      STRIPE_SECRET_KEY: STRIPE_KEY,
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      STRIPE_GOOGLE_PAY: 'true',
      CRYPTOMUS_MERCHANT_ID: 'merchant-1',
      CRYPTOMUS_PAYMENT_KEY: 'key-1',
    });
    expect(config.billing.gateways.stripe).toEqual({
      secretKey: STRIPE_KEY,
      webhookSecret: 'whsec_abc',
      googlePay: true,
      applePay: false,
    });
    expect(config.billing.gateways.cryptomus).toMatchObject({ merchantId: 'merchant-1' });
    expect(config.billing.gateways.paypal).toBeUndefined();
    expect(config.billing.gateways.appstore).toBeUndefined();
  });

  it('refuses half a set or a bad value, naming the variable', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: STRIPE_KEY })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(() =>
      loadConfig({ STRIPE_SECRET_KEY: 'pk_live_oops', STRIPE_WEBHOOK_SECRET: 'whsec_a' }),
    ).toThrow(ConfigError);
    expect(() =>
      loadConfig({
        PAYPAL_CLIENT_ID: 'a',
        PAYPAL_CLIENT_SECRET: 'b',
        PAYPAL_WEBHOOK_ID: 'c',
        PAYPAL_ENVIRONMENT: 'moon',
      }),
    ).toThrow(/PAYPAL_ENVIRONMENT/);
  });
});

describe("staff's gateway settings", async () => {
  const { app } = await createTestApp();
  afterAll(() => app.close());
  const call = endpointClient(app);
  const admin = await sessionFor(app, await createUser(app.db, { role: 'ADMIN' }));
  const author = await sessionFor(app, await createUser(app.db, { role: 'AUTHOR' }));

  it('lists each real gateway, off and keyless by default, with its webhook URL', async () => {
    const { status, data } = await call(e.list, { cookie: admin.cookie });
    expect(status).toBe(200);
    expect(data.items.map((item) => [item.gateway, item.service_id, item.source])).toEqual([
      ['stripe', 1, 'none'],
      ['paypal', 2, 'none'],
      ['appstore', 4, 'none'],
      ['cryptomus', 6, 'none'],
    ]);
    expect(data.items[0]?.webhook_url).toMatch(/\/api\/public\/v1\/webhooks\/stripe$/);
    expect(data.items.every((item) => !item.enabled)).toBe(true);
  });

  it('seals secrets at rest, never shows them back, and keeps one a form leaves out', async () => {
    const saved = await call(e.update, {
      cookie: admin.cookie,
      body: {
        gateway: 'stripe',
        enabled: true,
        values: { secretKey: STRIPE_KEY, webhookSecret: 'whsec_first', applePay: true },
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.data.item).toMatchObject({
      source: 'admin',
      values: { applePay: true, googlePay: false },
      secrets: { secretKey: true, webhookSecret: true },
    });
    expect(JSON.stringify(saved.data)).not.toContain('sk_test');
    expect(JSON.stringify(saved.data)).not.toContain('whsec_first');
    const [row] = await app.db
      .select()
      .from(gatewaySettings)
      .where(eq(gatewaySettings.gateway, 'stripe'));
    expect(JSON.stringify(row)).not.toContain('sk_test');
    expect(JSON.stringify(row)).not.toContain('whsec_first');

    // Saved again without the secrets: they stay.
    const again = await call(e.update, {
      cookie: admin.cookie,
      body: { gateway: 'stripe', enabled: true, values: { applePay: false } },
    });
    expect(again.status).toBe(200);
    expect(again.data.item.secrets).toEqual({ secretKey: true, webhookSecret: true });
    const audits = await app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'billing.gateway_settings_updated'));
    expect(audits.map((entry) => entry.data)).toContainEqual(
      expect.objectContaining({ secrets_changed: ['secretKey', 'webhookSecret'] }),
    );
    expect(JSON.stringify(audits)).not.toContain('sk_test');
  });

  it('asks for the secrets again when they would go to another address', async () => {
    const moved = await call(e.update, {
      cookie: admin.cookie,
      body: {
        gateway: 'stripe',
        enabled: true,
        values: { apiUrl: 'https://collector.example.net' },
      },
    });
    expect(moved.status).toBe(422);
    expect(moved.body).toMatchObject({
      errors_validation: {
        'values.secretKey': ['input_errors.field_is_required'],
        'values.webhookSecret': ['input_errors.field_is_required'],
      },
    });
  });

  it('shows a bad or missing key under its field, and saves nothing', async () => {
    const bad = await call(e.update, {
      cookie: admin.cookie,
      body: { gateway: 'paypal', enabled: true, values: { clientId: 'id-only' } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({
      errors_validation: {
        'values.clientSecret': ['input_errors.field_is_required'],
        'values.webhookId': ['input_errors.field_is_required'],
      },
    });
    const rows = await app.db
      .select()
      .from(gatewaySettings)
      .where(eq(gatewaySettings.gateway, 'paypal'));
    expect(rows).toEqual([]);
    // Switched off, nothing needs to be complete.
    const off = await call(e.update, {
      cookie: admin.cookie,
      body: { gateway: 'paypal', enabled: false, values: {} },
    });
    expect(off.status).toBe(200);
    expect(off.data.item).toMatchObject({ enabled: false, source: 'admin' });
  });

  it('is for admins only', async () => {
    expect((await call(e.list, { cookie: author.cookie })).status).toBe(403);
    const refused = await call(e.update, {
      cookie: author.cookie,
      body: { gateway: 'cryptomus', enabled: false, values: {} },
    });
    expect(refused.status).toBe(403);
  });
});

describe('a gateway turned on by its keys', async () => {
  const { app } = await createTestApp({
    CRYPTOMUS_MERCHANT_ID: 'merchant-under-test',
    CRYPTOMUS_PAYMENT_KEY: 'payment-key-under-test',
    CRYPTOMUS_API_URL: 'http://127.0.0.1:9',
  });
  afterAll(() => app.close());
  const call = endpointClient(app);
  const admin = await sessionFor(app, await createUser(app.db, { role: 'ADMIN' }));
  const services = async () =>
    (await call(billingEndpoints.services, {})).data.items.map((item) => item.service_id);
  const products = async () =>
    (await call(billingEndpoints.products, { query: { service_id: 6, currency: 'USD' } })).data
      .items;

  it('sells from the environment, and staff can switch it off and on without a restart', async () => {
    await seedDemoCatalog(app.db);
    expect(await services()).toEqual([1, 6]);
    expect((await products()).length).toBeGreaterThan(0);
    const listed = await call(e.list, { cookie: admin.cookie });
    expect(listed.data.items.find((item) => item.gateway === 'cryptomus')).toMatchObject({
      enabled: true,
      source: 'environment',
      values: { merchantId: 'merchant-under-test' },
      secrets: { paymentKey: true },
    });
    const off = await call(e.update, {
      cookie: admin.cookie,
      body: { gateway: 'cryptomus', enabled: false, values: {} },
    });
    expect(off.data.item).toMatchObject({ enabled: false, source: 'admin' });
    expect(await services()).toEqual([1]);
    // A service no gateway sells shows no products on the order page (§2).
    expect(await products()).toEqual([]);
    // Off for new orders, it still hears of what it sold: its webhook route is there.
    const webhook = await app.inject({
      method: 'POST',
      url: '/api/public/v1/webhooks/cryptomus',
      payload: { uuid: 'x', sign: 'forged' },
    });
    expect(webhook.statusCode).toBe(400);
    const on = await call(e.update, {
      cookie: admin.cookie,
      body: {
        gateway: 'cryptomus',
        enabled: true,
        values: { merchantId: 'merchant-2', paymentKey: 'another-key' },
      },
    });
    expect(on.data.item).toMatchObject({ enabled: true, source: 'admin' });
    expect(await services()).toEqual([1, 6]);
  });
});
