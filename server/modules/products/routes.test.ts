import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import {
  productEndpoints as e,
  PRODUCT_MESSAGES as M,
  type ProductCreateRequest,
} from '#shared/contracts/admin/products.ts';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { DEFAULT_DEVICE_LIMIT } from '#shared/vpn/fleet-rules.ts';
import {
  auditLog,
  couponProducts,
  coupons,
  gatewayPrices,
  invoiceLines,
  productIncludes,
  products,
  subscriptionItems,
  subscriptions,
} from '../../db/schema/index.ts';
import { CARDS, cardToken, openShop } from '../../test/billing-kit.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser, type TestSession } from '../../test/test-sessions.ts';
import { applyAnswer } from '../billing/gateway-events.ts';
import { priceFor } from '../billing/gateway-refs.ts';

// §2 /admin/payment-gateways/{gateway}/products and the addons, §7 dashboard /products,
// /services, /includable-products, through the real routes, database and sandbox gateway.
// Who may call them at all is the authorization matrix's.
const { app } = await createTestApp();
afterAll(() => app.close());
const shop = await openShop(app);
const { call } = shop;
const admin = await signedInUser(app, { role: 'ADMIN', name: 'Catalog Admin' });
const as = { cookie: admin.cookie };

let made = 0;
/** A distinct currency per test keeps "most selected" and the order page to itself. */
const currencies = ['CHF', 'GBP', 'JPY', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'AUD', 'CAD'];

function fields(overrides: Partial<ProductCreateRequest> = {}): ProductCreateRequest {
  made += 1;
  return {
    service_id: 1,
    plan: 'standard',
    name: `Test plan ${made}`,
    description: 'For the tests',
    amount: 999,
    amount_old: null,
    currency: 'USD',
    interval: 'month',
    interval_count: 1,
    onetime: false,
    visible: true,
    disabled: false,
    sort: 500 + made,
    as_monthly_rate: false,
    discounted_badge: false,
    as_most_selected: false,
    additional: false,
    includable: false,
    additional_product: null,
    family_seats: 0,
    device_limit: 10,
    ...overrides,
  };
}

async function create(overrides: Partial<ProductCreateRequest> = {}) {
  const answer = await call(e.create, { ...as, body: fields(overrides) });
  if (answer.status !== 201)
    throw new Error(`create ${answer.status}: ${JSON.stringify(answer.data)}`);
  return answer.data.product;
}

async function audited(action: string, subjectId?: number) {
  return app.db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, action),
        subjectId === undefined ? undefined : eq(auditLog.subjectId, String(subjectId)),
      ),
    );
}

/** A customer orders a product (ours, by id) with a new card on the sandbox. */
async function buy(buyer: TestSession, productId: number, addonIds: number[] = []) {
  const answer = await call(billingEndpoints.checkout, {
    cookie: buyer.cookie,
    body: {
      product_id: productId,
      addon_ids: addonIds,
      payment: { service_id: 1, token: await cardToken(app, CARDS.visa) },
      idempotency_key: randomUUID(),
      lang: 'en',
    },
  });
  if (answer.status !== 200)
    throw new Error(`buy ${answer.status}: ${JSON.stringify(answer.data)}`);
  return answer.data.subscription_id as number;
}

async function onOrderPage(currency: string) {
  const answer = await call(billingEndpoints.products, { query: { currency, service_id: 1 } });
  return answer.data.items.map((item) => item.name);
}

describe('products: create, view and the order page', () => {
  it('creates a product with every field, audited, on the order page at once', async () => {
    const currency = currencies[0] as string;
    expect(await onOrderPage(currency)).toEqual([]);
    const addon = await create({
      currency,
      name: 'Static IP',
      plan: 'dedicated-ip',
      additional: true,
      amount: 300,
    });
    const answer = await call(e.create, {
      ...as,
      body: fields({
        currency,
        name: 'Swiss year',
        plan: 'yearly',
        description: 'A year in francs',
        amount: 6000,
        amount_old: 12_000,
        interval: 'year',
        interval_count: 1,
        sort: 7,
        as_monthly_rate: true,
        discounted_badge: true,
        as_most_selected: true,
        additional_product: addon.product_id,
        family_seats: 3,
        device_limit: 5,
      }),
    });
    expect(answer.status).toBe(201);
    const product = answer.data.product;
    expect(product).toMatchObject({
      service_id: 1,
      name: 'Swiss year',
      plan: 'yearly',
      description: 'A year in francs',
      amount: 6000,
      amount_old: 12_000,
      currency,
      interval: 'year',
      interval_count: 1,
      visible: true,
      disabled: false,
      sort: 7,
      as_monthly_rate: true,
      discounted_badge: true,
      as_most_selected: true,
      additional: false,
      includable: false,
      additional_product: addon.product_id,
      family_seats: 3,
      device_limit: 5,
      monthly_amount: 500,
      saving_percent: 50,
      gateway_prices: [],
      active_subscriptions: 0,
      includable_product_id: [],
    });
    expect(await audited('products.created', product.product_id)).toHaveLength(1);
    // The order page's cache held the empty catalog: the change shows at once all the same.
    expect(await onOrderPage(currency)).toEqual(['Swiss year', 'Static IP']);

    const viewed = await call(e.view, { ...as, query: { product_id: product.product_id } });
    expect(viewed.data.product).toEqual(product);
  });

  it('answers field errors for bad input, never a 500', async () => {
    const cases: [Partial<ProductCreateRequest> | Record<string, unknown>, string, string][] = [
      [{ name: '' }, 'name', 'input_errors.field_is_required'],
      [{ amount: -1 }, 'amount', 'input_errors.field_is_invalid'],
      [{ amount: 9.5 }, 'amount', 'input_errors.field_is_invalid'],
      [{ currency: 'usd' }, 'currency', 'input_errors.field_is_invalid'],
      [{ plan: 'Not A Slug' }, 'plan', 'input_errors.field_is_invalid'],
      [{ service_id: 3 }, 'service_id', 'input_errors.field_is_invalid'],
      [{ interval: null }, 'interval', 'input_errors.field_is_required'],
      [{ interval: 'fortnight' }, 'interval', 'input_errors.field_is_invalid'],
      [{ includable: true }, 'includable', M.includableNotAddon],
      [{ service_id: 2, onetime: true }, 'onetime', M.renewsOnly],
      [{ service_id: 6 }, 'onetime', M.onetimeOnly],
      [{ additional_product: 2_000_000 }, 'additional_product', M.addonMismatch],
      [{ device_limit: 0 }, 'device_limit', 'input_errors.field_is_invalid'],
      [{ device_limit: 1001 }, 'device_limit', 'input_errors.field_is_invalid'],
      [{ device_limit: 2.5 }, 'device_limit', 'input_errors.field_is_invalid'],
    ];
    for (const [overrides, field, message] of cases) {
      const answer = await call(e.create, { ...as, body: { ...fields(), ...overrides } });
      expect(answer.status, field).toBe(422);
      expect(answer.body.errors_validation, field).toEqual({ [field]: [message] });
    }
    // A plan as the addon beside a plan, or an addon of another currency: refused.
    const plan = await shop.plan('1 month');
    const eurAddon = (await shop.plan('1 month', 'EUR')).additionalProductId;
    for (const id of [plan.id, eurAddon]) {
      const answer = await call(e.create, { ...as, body: fields({ additional_product: id }) });
      expect(answer.body.errors_validation).toEqual({ additional_product: [M.addonMismatch] });
    }
  });

  it('lists by service and kind, with filters, sort and paging, never a deleted one', async () => {
    const currency = currencies[1] as string;
    const addon = await create({ currency, name: 'Kind addon', additional: true, sort: 3 });
    const module = await create({
      currency,
      name: 'Kind module',
      additional: true,
      includable: true,
      sort: 2,
    });
    const plan = await create({ currency, name: 'Kind plan', sort: 1 });
    const hidden = await create({ currency, name: 'Kind hidden', visible: false, sort: 4 });
    const gone = await create({ currency, name: 'Kind gone', sort: 5 });
    expect((await call(e.delete, { ...as, body: { product_id: gone.product_id } })).status).toBe(
      200,
    );
    const names = async (query: Record<string, string | number>) =>
      (await call(e.list, { ...as, query: { service_id: 1, currency, ...query } })).data.items.map(
        (item) => item.name,
      );
    expect(await names({ kind: 'plans' })).toEqual(['Kind plan', 'Kind hidden']);
    expect(await names({ kind: 'addons' })).toEqual(['Kind module', 'Kind addon']);
    expect(await names({ kind: 'includable' })).toEqual(['Kind module']);
    expect(await names({ visible: 'false' })).toEqual(['Kind hidden']);
    expect(await names({ sort: 'name', direction: 'desc' })).toEqual([
      'Kind plan',
      'Kind module',
      'Kind hidden',
      'Kind addon',
    ]);
    expect(await names({ search: 'MODULE' })).toEqual(['Kind module']);
    const page = await call(e.list, {
      ...as,
      query: { service_id: 1, currency, per_page: 3, page: 2 },
    });
    expect(page.data.items.map((item) => item.name)).toEqual(['Kind hidden']);
    expect(page.data.controls).toEqual({ page: 2, per_page: 3, total: 4, last_page: 2 });
    expect(await names({ service_id: 2 })).toEqual([]);
    const bad = await call(e.list, {
      ...as,
      query: { kind: 'everything', sort: 'secret' } as unknown as Record<string, never>,
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors_validation as object).sort()).toEqual(['kind', 'sort']);

    const includable = await call(e.includable, { ...as, query: { service_id: 1, currency } });
    expect(includable.data.items.map((item) => item.product_id)).toEqual([module.product_id]);
    const some = await call(e.getIn, {
      ...as,
      query: { ids: `${plan.product_id},${gone.product_id},${addon.product_id}` },
    });
    expect(some.data.items.map((item) => item.product_id)).toEqual([
      plan.product_id,
      addon.product_id,
    ]);
    expect((await call(e.view, { ...as, query: { product_id: gone.product_id } })).status).toBe(
      404,
    );
    expect(hidden.visible).toBe(false);
  });

  it('gives a product the house device limit unless staff set one, and keeps a change', async () => {
    const { device_limit: _unset, ...withoutLimit } = fields({ name: 'Default devices' });
    const answer = await call(e.create, { ...as, body: withoutLimit });
    expect(answer.status).toBe(201);
    expect(answer.data.product.device_limit).toBe(DEFAULT_DEVICE_LIMIT);
    const { service_id: _fixed, ...update } = fields({
      name: 'Default devices',
      device_limit: 1000,
    });
    const saved = await call(e.update, {
      ...as,
      body: { ...update, product_id: answer.data.product.product_id },
    });
    expect(saved.status).toBe(200);
    expect(saved.data.product.device_limit).toBe(1000);
    const [row] = await app.db
      .select()
      .from(products)
      .where(eq(products.id, answer.data.product.product_id));
    expect(row?.deviceLimit).toBe(1000);
    const [audit] = await audited('products.updated', answer.data.product.product_id);
    expect(audit?.data).toMatchObject({
      changes: { deviceLimit: { from: DEFAULT_DEVICE_LIMIT, to: 1000 } },
    });
  });

  it('tells each service, the gateway selling it and its catalog', async () => {
    const answer = await call(e.services, as);
    expect(answer.status).toBe(200);
    expect(answer.data.items.map((item) => item.service_id)).toEqual([1, 2, 4, 5, 6]);
    const cards = answer.data.items[0];
    expect(cards).toMatchObject({ service_id: 1, gateway: 'sandbox', selling: true });
    expect(cards?.currencies).toEqual(expect.arrayContaining(['EUR', 'RUB', 'USD']));
    expect(cards?.products).toBeGreaterThanOrEqual(cards?.visible_products ?? 0);
    expect(answer.data.items.find((item) => item.service_id === 2)).toMatchObject({
      gateway: null,
      selling: false,
    });
  });
});

describe('products: changes', () => {
  it('keeps one "most selected" per service and currency', async () => {
    const currency = currencies[2] as string;
    const first = await create({ currency, as_most_selected: true });
    const other = await create({ currency: currencies[3], as_most_selected: true });
    const second = await create({ currency, as_most_selected: true });
    const marked = async () =>
      (await app.db.select().from(products).where(eq(products.asMostSelected, true)))
        .filter((row) => row.currency === currency || row.currency === currencies[3])
        .map((row) => row.id)
        .sort();
    expect(await marked()).toEqual([other.product_id, second.product_id].sort());
    const back = await call(e.update, {
      ...as,
      body: { ...fields({ currency, as_most_selected: true }), product_id: first.product_id },
    });
    expect(back.status).toBe(200);
    expect(await marked()).toEqual([first.product_id, other.product_id].sort());
    const [row] = await audited('products.updated', first.product_id);
    expect(row?.data).toMatchObject({ most_selected_unmarked: [second.product_id] });
  });

  it('updates every field but the service; a new amount makes a new price at the gateway', async () => {
    const product = await create({ name: 'Repriced', amount: 1500 });
    const buyer = await signedInUser(app);
    await buy(buyer, product.product_id);
    const gateway = app.payments.get('sandbox');
    if (!gateway) throw new Error('the test app sells through the sandbox');
    const before = await app.db
      .select()
      .from(gatewayPrices)
      .where(eq(gatewayPrices.productId, product.product_id));
    expect(before).toHaveLength(1);

    const body = { ...fields({ name: 'Repriced', amount: 1700, service_id: 2 }) };
    const { service_id: _ignored, ...update } = body;
    const answer = await call(e.update, {
      ...as,
      body: { ...update, product_id: product.product_id },
    });
    expect(answer.status).toBe(200);
    expect(answer.data.product).toMatchObject({ service_id: 1, amount: 1700 });
    const [row] = await app.db.select().from(products).where(eq(products.id, product.product_id));
    if (!row) throw new Error('gone');
    const price = await priceFor(app, gateway, row);
    expect(price.ref).not.toBe(before[0]?.priceRef);
    expect(price.amount).toBe(1700);
    // The next sale is at the new price; the first buyer's subscription keeps its own.
    const second = await buy(await signedInUser(app), product.product_id);
    const [sub] = await app.db.select().from(subscriptions).where(eq(subscriptions.id, second));
    expect(sub?.amount).toBe(1700);
    const viewed = await call(e.view, { ...as, query: { product_id: product.product_id } });
    expect(viewed.data.product.gateway_prices.map((p) => p.price_ref)).toEqual([
      price.ref,
      before[0]?.priceRef,
    ]);
    expect(viewed.data.product.active_subscriptions).toBe(2);
    const [audit] = await audited('products.updated', product.product_id);
    expect(audit?.data).toMatchObject({ changes: { amount: { from: 1500, to: 1700 } } });
    const unknown = await call(e.update, { ...as, body: { ...update, product_id: 2_000_000 } });
    expect(unknown.status).toBe(404);
  });

  it('refuses to delete a product running subscriptions use, as plan or addon', async () => {
    const addon = await create({ name: 'Used addon', additional: true, amount: 200 });
    const plan = await create({ name: 'Used plan', additional_product: addon.product_id });
    const buyer = await signedInUser(app);
    const subscriptionId = await buy(buyer, plan.product_id, [addon.product_id]);
    for (const product of [plan, addon]) {
      const answer = await call(e.delete, { ...as, body: { product_id: product.product_id } });
      expect(answer.status).toBe(409);
      expect(answer.body.errors_info).toEqual([M.inUse]);
    }
    expect(await audited('products.deleted', plan.product_id)).toEqual([]);
    // Once it has ended, the product may go: hidden everywhere, kept for its records.
    await app.db
      .update(subscriptions)
      // Dated after any report of it still on its way (the sandbox's webhooks), which is then older.
      .set({ status: 'expired', gatewayUpdatedAt: new Date('2100-01-01T00:00:00Z') })
      .where(eq(subscriptions.id, subscriptionId));
    expect(await onOrderPage('USD')).toContain('Used plan');
    for (const product of [addon, plan]) {
      const answer = await call(e.delete, { ...as, body: { product_id: product.product_id } });
      expect(answer.status).toBe(200);
    }
    const [kept] = await app.db.select().from(products).where(eq(products.id, plan.product_id));
    expect(kept?.deletedAt).toBeInstanceOf(Date);
    expect(await onOrderPage('USD')).not.toContain('Used plan');
    expect(await audited('products.deleted', plan.product_id)).toHaveLength(1);
    const again = await call(e.delete, { ...as, body: { product_id: plan.product_id } });
    expect(again.status).toBe(404);
    const order = await call(billingEndpoints.quote, {
      body: { product_id: plan.product_id, addon_ids: [] },
    });
    expect(order.status).toBe(422);
  });

  it('mass-updates in one transaction, audited once, one "most selected" each', async () => {
    const currency = currencies[4] as string;
    const a = await create({ currency, as_most_selected: true, sort: 1 });
    const b = await create({ currency, sort: 2 });
    const c = await create({ currency, sort: 3 });
    const answer = await call(e.massUpdate, {
      ...as,
      body: {
        items: [
          { product_id: c.product_id, sort: 1, as_most_selected: true, amount: 4321 },
          { product_id: a.product_id, sort: 3, visible: false },
          { product_id: b.product_id, disabled: true, amount_old: 5000, discounted_badge: true },
        ],
      },
    });
    expect(answer.status).toBe(200);
    const byId = new Map(answer.data.items.map((item) => [item.product_id, item]));
    expect(byId.get(c.product_id)).toMatchObject({ sort: 1, as_most_selected: true, amount: 4321 });
    expect(byId.get(a.product_id)).toMatchObject({
      sort: 3,
      visible: false,
      as_most_selected: false,
    });
    expect(byId.get(b.product_id)).toMatchObject({
      disabled: true,
      amount_old: 5000,
      discounted_badge: true,
      amount: 999,
    });
    expect(await onOrderPage(currency)).toEqual([c.name]);
    const audits = (await audited('products.mass_updated')).filter((row) =>
      JSON.stringify(row.data).includes(String(c.product_id)),
    );
    expect(audits).toHaveLength(1);

    // One bad item: nothing changes.
    const refused = await call(e.massUpdate, {
      ...as,
      body: {
        items: [
          { product_id: a.product_id, visible: true },
          { product_id: 2_000_000, visible: true },
        ],
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors_validation).toEqual({
      'items.1.product_id': ['input_errors.field_is_invalid'],
    });
    // A plan deleted since the list was read is left out; the rest is saved.
    expect((await call(e.delete, { ...as, body: { product_id: c.product_id } })).status).toBe(200);
    const stale = await call(e.massUpdate, {
      ...as,
      body: {
        items: [
          { product_id: c.product_id, sort: 9, visible: true },
          { product_id: b.product_id, sort: 1 },
        ],
      },
    });
    expect(stale.status).toBe(200);
    expect(stale.data.items.map((item) => [item.product_id, item.sort])).toEqual([
      [b.product_id, 1],
    ]);
    const [gone] = await app.db.select().from(products).where(eq(products.id, c.product_id));
    expect(gone).toMatchObject({ sort: 1, deletedAt: expect.any(Date) });
    const twice = await call(e.massUpdate, {
      ...as,
      body: {
        items: [
          { product_id: a.product_id, as_most_selected: true },
          { product_id: b.product_id, as_most_selected: true },
        ],
      },
    });
    expect(twice.body.errors_validation).toEqual({ items: [M.mostSelectedTwice] });
    const [still] = await app.db.select().from(products).where(eq(products.id, a.product_id));
    expect(still).toMatchObject({ visible: false, asMostSelected: false });
    const tooMany = await call(e.massUpdate, {
      ...as,
      body: { items: Array.from({ length: 201 }, (_, i) => ({ product_id: i + 1 })) },
    });
    expect(tooMany.status).toBe(422);
  });

  it("replaces a plan's includable addons with those of its service and currency", async () => {
    const currency = currencies[5] as string;
    const plan = await create({ currency });
    const one = await create({ currency, additional: true, includable: true });
    const two = await create({ currency, additional: true, includable: true });
    const plainAddon = await create({ currency, additional: true });
    const elsewhere = await create({ currency: 'USD', additional: true, includable: true });
    const set = (product_id: number, ids: number[]) =>
      call(e.includesUpdate, { ...as, body: { product_id, includable_product_ids: ids } });
    const answer = await set(plan.product_id, [one.product_id, two.product_id]);
    expect(answer.status).toBe(200);
    expect([...answer.data.product.includable_product_id].sort()).toEqual(
      [one.product_id, two.product_id].sort(),
    );
    expect(
      (await set(plan.product_id, [two.product_id])).data.product.includable_product_id,
    ).toEqual([two.product_id]);
    for (const bad of [plainAddon, elsewhere, plan]) {
      const refused = await set(plan.product_id, [bad.product_id]);
      expect(refused.body.errors_validation).toEqual({ includable_product_ids: [M.notIncludable] });
    }
    expect((await set(one.product_id, [])).body.errors_validation).toEqual({
      product_id: [M.plansOnly],
    });
    const [audit] = await audited('products.includes_updated', plan.product_id);
    expect(audit?.data).toEqual({
      from: [],
      to: [one.product_id, two.product_id].sort((x, y) => x - y),
    });
    // An included addon stays an includable addon while a plan includes it.
    const { service_id: _s, ...asPlain } = fields({ currency, additional: true });
    const locked = await call(e.update, {
      ...as,
      body: { ...asPlain, product_id: two.product_id },
    });
    expect(locked.body.errors_validation).toEqual({ includable: [M.addonInUse] });
  });
});

describe('products: merge', () => {
  it('moves subscriptions, items, invoice lines, coupons, includes and prices; deletes `from`', async () => {
    const addon = await create({ name: 'Merge addon', additional: true, includable: true });
    const from = await create({ name: 'Merge from', amount: 1111 });
    const into = await create({ name: 'Merge into', amount: 2222 });
    await call(e.includesUpdate, {
      ...as,
      body: { product_id: from.product_id, includable_product_ids: [addon.product_id] },
    });
    const [coupon] = await app.db
      .insert(coupons)
      .values({ code: `MERGE${made}`, name: 'Merge coupon', percentOff: 10, duration: 'once' })
      .returning();
    if (!coupon) throw new Error('no coupon');
    await app.db.insert(couponProducts).values({ couponId: coupon.id, productId: from.product_id });
    const buyer = await signedInUser(app);
    const subscriptionId = await buy(buyer, from.product_id);
    const fromPrices = await app.db
      .select()
      .from(gatewayPrices)
      .where(eq(gatewayPrices.productId, from.product_id));

    const refused = await call(e.delete, { ...as, body: { product_id: from.product_id } });
    expect(refused.status).toBe(409);
    const answer = await call(e.merge, {
      ...as,
      body: { from_product_id: from.product_id, into_product_id: into.product_id },
    });
    expect(answer.status).toBe(200);
    expect(answer.data.product).toMatchObject({
      product_id: into.product_id,
      active_subscriptions: 1,
      includable_product_id: [addon.product_id],
    });
    const [sub] = await app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, subscriptionId));
    expect(sub?.productId).toBe(into.product_id);
    const items = await app.db
      .select()
      .from(subscriptionItems)
      .where(eq(subscriptionItems.subscriptionId, subscriptionId));
    expect(items.map((item) => item.productId)).toEqual([into.product_id]);
    const lines = await app.db
      .select()
      .from(invoiceLines)
      .where(inArray(invoiceLines.productId, [from.product_id, into.product_id]));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => line.productId === into.product_id)).toBe(true);
    expect(
      await app.db.select().from(couponProducts).where(eq(couponProducts.couponId, coupon.id)),
    ).toEqual([{ couponId: coupon.id, productId: into.product_id }]);
    expect(
      await app.db
        .select()
        .from(productIncludes)
        .where(eq(productIncludes.planId, from.product_id)),
    ).toEqual([]);
    const prices = await app.db
      .select()
      .from(gatewayPrices)
      .where(eq(gatewayPrices.productId, into.product_id));
    expect(prices.map((p) => p.priceRef)).toEqual(
      expect.arrayContaining(fromPrices.map((p) => p.priceRef)),
    );
    const [gone] = await app.db.select().from(products).where(eq(products.id, from.product_id));
    expect(gone?.deletedAt).toBeInstanceOf(Date);
    const [audit] = await audited('products.merged', into.product_id);
    expect(audit?.data).toMatchObject({
      from: { product_id: from.product_id },
      moved: { subscriptions: 1, subscription_items: 1 },
    });

    // The gateway still names the old product; its next report keeps the merged one.
    const gateway = app.payments.get('sandbox');
    if (!gateway || !sub) throw new Error('the test app sells through the sandbox');
    const snapshot = await gateway.fetchSubscription(sub.gatewayRef);
    if (!snapshot) throw new Error('the sandbox lost the subscription');
    await applyAnswer(app, gateway, { subscription: { ...snapshot, updatedAt: new Date() } });
    const [after] = await app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, subscriptionId));
    expect(after?.productId).toBe(into.product_id);
  });

  it('refuses products of other terms, a deleted one, or a product into itself', async () => {
    const base = await create({ name: 'Merge base' });
    const yearly = await create({ name: 'Merge yearly', interval: 'year' });
    const euro = await create({ name: 'Merge euro', currency: 'EUR' });
    const addon = await create({ name: 'Merge addon 2', additional: true });
    const deleted = await create({ name: 'Merge deleted' });
    await call(e.delete, { ...as, body: { product_id: deleted.product_id } });
    const merge = (from: number, into: number) =>
      call(e.merge, { ...as, body: { from_product_id: from, into_product_id: into } });
    for (const other of [yearly, euro, addon, deleted]) {
      const answer = await merge(other.product_id, base.product_id);
      expect(answer.status).toBe(422);
    }
    expect((await merge(base.product_id, yearly.product_id)).body.errors_validation).toEqual({
      into_product_id: [M.mergeMismatch],
    });
    expect((await merge(base.product_id, base.product_id)).body.errors_validation).toEqual({
      into_product_id: [M.mergeSame],
    });
    const [still] = await app.db.select().from(products).where(eq(products.id, base.product_id));
    expect(still?.deletedAt).toBeNull();
  });
});
