import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  type CouponCreateRequest,
  couponEndpoints as e,
  COUPON_MESSAGES as M,
} from '#shared/contracts/admin/coupons.ts';
import { BILLING_MESSAGES, billingEndpoints } from '#shared/contracts/billing.ts';
import { auditLog, coupons } from '../../db/schema/index.ts';
import { openShop } from '../../test/billing-kit.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser } from '../../test/test-sessions.ts';

// §2 /admin/coupons and §7 dashboard /coupons through the real routes, database and the
// sandbox gateway; and the public pre-applied link. Who may call them at all is the
// authorization matrix's; the refusals of other roles are checked once here too.
const { app } = await createTestApp();
const shop = await openShop(app);
const api = shop.call;
const admin = await signedInUser(app, { role: 'ADMIN' });
const as = { cookie: admin.cookie };
let codes = 0;
/** A code no other test uses. */
const fresh = (stem: string) => `${stem}${Date.now().toString(36)}${++codes}`.toUpperCase();

const percent = (code: string, extra: Partial<CouponCreateRequest> = {}) => ({
  code,
  name: `${code} campaign`,
  discount_type: 'percent' as const,
  percent_off: 25,
  duration: 'once' as const,
  ...extra,
});

async function create(body: Parameters<typeof percent>[1] & { code: string }) {
  const answer = await api(e.create, { ...as, body: percent(body.code, body) });
  expect(answer.status, answer.text).toBe(201);
  return answer.data.coupon;
}

async function audited(couponId: number, action: string) {
  return app.db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.subjectType, 'coupon'),
        eq(auditLog.subjectId, String(couponId)),
        eq(auditLog.action, action),
      ),
    );
}

describe('who may manage coupons', () => {
  it('lets an admin in; an author and a customer get 403, a visitor 401', async () => {
    const author = await signedInUser(app, { role: 'AUTHOR' });
    const customer = await signedInUser(app);
    expect((await api(e.list, as)).status).toBe(200);
    expect((await api(e.list, { cookie: author.cookie })).status).toBe(403);
    expect((await api(e.list, { cookie: customer.cookie })).status).toBe(403);
    expect((await api(e.list)).status).toBe(401);
    const body = percent(fresh('ROLE'));
    expect((await api(e.create, { cookie: author.cookie, body })).status).toBe(403);
    expect((await api(e.create, { cookie: customer.cookie, body })).status).toBe(403);
  });
});

describe('creating a coupon', () => {
  it('stores a percent coupon limited to products, audited', async () => {
    const plan = await shop.plan('1 month');
    const code = fresh('spring');
    const coupon = await create({ code, product_ids: [plan.id], max_redemptions: 10 });
    expect(coupon).toMatchObject({
      code,
      discount_type: 'percent',
      percent_off: 25,
      amount_off: null,
      currency: null,
      duration: 'once',
      state: 'active',
      preapplied: false,
      times_redeemed: 0,
      product_ids: [plan.id],
      products: [expect.objectContaining({ product_id: plan.id, name: '1 month' })],
      redemptions_count: 0,
      terms_locked: false,
    });
    expect(await audited(coupon.coupon_id, 'coupons.created')).toHaveLength(1);
  });

  it('stores only the chosen discount: an amount with its currency, months when repeating', async () => {
    const coupon = await create({
      code: fresh('FIVE'),
      discount_type: 'amount',
      percent_off: 10,
      amount_off: 500,
      currency: 'EUR',
      duration: 'forever',
      duration_in_months: 3,
    });
    expect(coupon).toMatchObject({
      discount_type: 'amount',
      percent_off: null,
      amount_off: 500,
      currency: 'EUR',
      duration_in_months: null,
    });
  });

  it.each([
    [{ code: 'a b' }, 'code', M.codeFormat],
    [{ code: 'ab' }, 'code', M.codeFormat],
    [{ name: '  ' }, 'name', 'input_errors.field_is_required'],
    [{ percent_off: 0 }, 'percent_off', 'input_errors.field_is_invalid'],
    [{ percent_off: 101 }, 'percent_off', 'input_errors.field_is_invalid'],
    [{ percent_off: null }, 'percent_off', 'input_errors.field_is_required'],
    [{ discount_type: 'amount', amount_off: 100 }, 'currency', M.currencyNeeded],
    [{ discount_type: 'amount', currency: 'USD' }, 'amount_off', 'input_errors.field_is_required'],
    [{ duration: 'repeating' }, 'duration_in_months', M.monthsNeeded],
    [
      { duration: 'repeating', duration_in_months: 0 },
      'duration_in_months',
      'input_errors.field_is_invalid',
    ],
    [{ expires_at: '2001-01-01T00:00:00Z' }, 'expires_at', M.expiryPast],
    [{ product_ids: [2_000_000_000] }, 'product_ids', 'input_errors.field_is_invalid'],
  ] as const)('refuses %j under its field', async (change, field, message) => {
    const answer = await api(e.create, {
      ...as,
      body: { ...percent(fresh('BAD')), ...change } as CouponCreateRequest,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors_validation).toMatchObject({ [field]: [message] });
  });

  it('keeps codes unique whatever their case, even when two are made at once', async () => {
    const code = fresh('unique');
    await create({ code });
    const again = await api(e.create, { ...as, body: percent(code.toLowerCase()) });
    expect(again.status).toBe(422);
    expect(again.body.errors_validation).toEqual({ code: [M.codeTaken] });

    const racing = fresh('race');
    const answers = await Promise.all(
      [racing, racing.toLowerCase()].map((c) => api(e.create, { ...as, body: percent(c) })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
    const refused = answers.find((a) => a.status === 422);
    expect(refused?.body.errors_validation).toEqual({ code: [M.codeTaken] });
  });
});

describe('the coupons list', () => {
  const tag = fresh('LST');
  const made = (async () => {
    const past = new Date(Date.now() - 60_000);
    const active = await create({ code: `${tag}-ACTIVE`, preapplied: true });
    const amount = await create({
      code: `${tag}-AMOUNT`,
      discount_type: 'amount',
      amount_off: 300,
      currency: 'USD',
    });
    const expired = await create({ code: `${tag}-EXPIRED` });
    await app.db.update(coupons).set({ expiresAt: past }).where(eq(coupons.id, expired.coupon_id));
    const usedUp = await create({ code: `${tag}-USEDUP`, max_redemptions: 1 });
    await app.db.update(coupons).set({ timesRedeemed: 1 }).where(eq(coupons.id, usedUp.coupon_id));
    const gone = await create({ code: `${tag}-GONE` });
    expect((await api(e.delete, { ...as, body: { coupon_id: gone.coupon_id } })).status).toBe(200);
    return { active, amount, expired, usedUp, gone };
  })();
  const codesOf = async (query: Record<string, string>) =>
    (
      await api(e.list, { ...as, query: { search: tag, sort: 'code', direction: 'asc', ...query } })
    ).data.items.map((coupon) => coupon.code.slice(tag.length + 1));

  it('searches code and name, hides deleted coupons unless asked, sorts', async () => {
    await made;
    expect(await codesOf({})).toEqual(['ACTIVE', 'AMOUNT', 'EXPIRED', 'USEDUP']);
    expect(await codesOf({ direction: 'desc' })).toEqual(['USEDUP', 'EXPIRED', 'AMOUNT', 'ACTIVE']);
    const byName = await api(e.list, { ...as, query: { search: `${tag}-amount campaign` } });
    expect(byName.data.items.map((coupon) => coupon.code)).toEqual([`${tag}-AMOUNT`]);
    expect((await api(e.list, { ...as, query: { search: '%' } })).data.items).toEqual([]);
  });

  it('filters by state, pre-applied and discount type', async () => {
    const { expired, usedUp, gone } = await made;
    expect(await codesOf({ state: 'active' })).toEqual(['ACTIVE', 'AMOUNT']);
    expect(await codesOf({ state: 'expired' })).toEqual(['EXPIRED']);
    expect(await codesOf({ state: 'used_up' })).toEqual(['USEDUP']);
    expect(await codesOf({ state: 'deleted' })).toEqual(['GONE']);
    expect(await codesOf({ preapplied: 'true' })).toEqual(['ACTIVE']);
    expect(await codesOf({ discount_type: 'amount' })).toEqual(['AMOUNT']);
    const states = (await api(e.list, { ...as, query: { search: tag, state: 'deleted' } })).data
      .items;
    expect(states[0]).toMatchObject({ coupon_id: gone.coupon_id, state: 'deleted' });
    const view = async (id: number) =>
      (await api(e.view, { ...as, query: { coupon_id: id } })).data.coupon.state;
    expect(await view(expired.coupon_id)).toBe('expired');
    expect(await view(usedUp.coupon_id)).toBe('used_up');
    const bad = await api(e.list, { ...as, query: { state: 'sleeping' as never } });
    expect(bad.status).toBe(422);
  });
});

describe('changing a coupon', () => {
  it('changes anything before its first use', async () => {
    const coupon = await create({ code: fresh('EARLY') });
    const code = fresh('RENAMED');
    const answer = await api(e.update, {
      ...as,
      body: {
        ...percent(code),
        coupon_id: coupon.coupon_id,
        percent_off: 40,
        duration: 'repeating',
        duration_in_months: 3,
      },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.data.coupon).toMatchObject({
      code,
      percent_off: 40,
      duration: 'repeating',
      duration_in_months: 3,
    });
    const [row] = await audited(coupon.coupon_id, 'coupons.updated');
    expect(row?.data).toMatchObject({
      changed: ['code', 'name', 'percent_off', 'duration', 'duration_in_months'],
    });
  });

  it('once redeemed, keeps code and discount but lets name, expiry, cap, products and pre-applied change', async () => {
    const code = fresh('LOCKED');
    const coupon = await create({ code, max_redemptions: 5 });
    const buyer = await signedInUser(app);
    const bought = await shop.buy(buyer, { coupon: code });
    expect(bought.status, bought.text).toBe(200);
    const viewed = (await api(e.view, { ...as, query: { coupon_id: coupon.coupon_id } })).data
      .coupon;
    expect(viewed).toMatchObject({ times_redeemed: 1, redemptions_count: 1, terms_locked: true });

    const base = { ...percent(code), coupon_id: coupon.coupon_id, max_redemptions: 5 };
    const refusals = [
      [{ percent_off: 30 }, 'percent_off'],
      [{ code: fresh('OTHER') }, 'code'],
      [{ discount_type: 'amount', amount_off: 100, currency: 'USD' }, 'discount_type'],
      [{ duration: 'forever' }, 'duration'],
    ] as const;
    for (const [change, field] of refusals) {
      const answer = await api(e.update, { ...as, body: { ...base, ...change } });
      expect(answer.status, field).toBe(422);
      expect(answer.body.errors_validation).toEqual({ [field]: [M.termsLocked] });
    }
    const belowUses = await api(e.update, { ...as, body: { ...base, max_redemptions: 0 } });
    expect(belowUses.status).toBe(422);
    const plan = await shop.plan('1 year');
    const allowed = await api(e.update, {
      ...as,
      body: {
        ...base,
        code: code.toLowerCase(),
        name: 'Renamed after use',
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
        max_redemptions: 1,
        preapplied: true,
        product_ids: [plan.id],
      },
    });
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.data.coupon).toMatchObject({
      name: 'Renamed after use',
      max_redemptions: 1,
      preapplied: true,
      product_ids: [plan.id],
      percent_off: 25,
      state: 'used_up',
    });
  });

  it('never lowers the cap below the uses already made', async () => {
    const code = fresh('CAP');
    const coupon = await create({ code });
    await app.db.update(coupons).set({ timesRedeemed: 3 }).where(eq(coupons.id, coupon.coupon_id));
    const answer = await api(e.update, {
      ...as,
      body: { ...percent(code), coupon_id: coupon.coupon_id, max_redemptions: 2 },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors_validation).toEqual({ max_redemptions: [M.capBelowRedeemed] });
  });

  it('refuses a code another coupon has, and an unknown coupon', async () => {
    const taken = fresh('TAKEN');
    await create({ code: taken });
    const coupon = await create({ code: fresh('MINE') });
    const answer = await api(e.update, {
      ...as,
      body: { ...percent(taken.toLowerCase()), coupon_id: coupon.coupon_id },
    });
    expect(answer.body.errors_validation).toEqual({ code: [M.codeTaken] });
    const missing = await api(e.update, {
      ...as,
      body: { ...percent(fresh('NONE')), coupon_id: 2_000_000_000 },
    });
    expect(missing.status).toBe(404);
  });
});

describe('redemptions', () => {
  it('lists who used the coupon, on which subscription, and the discount on its invoice', async () => {
    const code = fresh('REDEEM');
    const coupon = await create({ code });
    const plan = await shop.plan('1 month');
    const buyer = await signedInUser(app);
    const bought = await shop.buy(buyer, { coupon: code });
    expect(bought.status, bought.text).toBe(200);
    const answer = await api(e.redemptions, { ...as, query: { coupon_id: coupon.coupon_id } });
    expect(answer.status).toBe(200);
    const discount = Math.round(plan.amount * 0.25);
    expect(answer.data).toMatchObject({
      controls: { total: 1 },
      items: [
        {
          user_id: buyer.user.id,
          email: buyer.user.email,
          subscription_id: bought.data.subscription_id,
          invoice: {
            invoice_id: bought.data.invoice_id,
            currency: 'USD',
            discount,
            total: plan.amount - discount,
          },
        },
      ],
    });
    const missing = await api(e.redemptions, { ...as, query: { coupon_id: 2_000_000_000 } });
    expect(missing.status).toBe(404);
  });
});

describe('deleting coupons', () => {
  it('makes a coupon unknown at checkout, keeps it viewable, and refuses changing it', async () => {
    const code = fresh('DELETE');
    const coupon = await create({ code });
    const plan = await shop.plan('1 month');
    const quote = () =>
      api(billingEndpoints.quote, { body: { product_id: plan.id, coupon: code } });
    expect((await quote()).status).toBe(200);
    const deleted = await api(e.delete, { ...as, body: { coupon_id: coupon.coupon_id } });
    expect(deleted.status).toBe(200);
    const refused = await quote();
    expect(refused.status).toBe(422);
    expect(refused.body.errors_validation).toEqual({ coupon: [BILLING_MESSAGES.couponUnknown] });
    const viewed = await api(e.view, { ...as, query: { coupon_id: coupon.coupon_id } });
    expect(viewed.data.coupon).toMatchObject({ state: 'deleted', deleted_at: expect.any(String) });
    const again = await api(e.delete, { ...as, body: { coupon_id: coupon.coupon_id } });
    expect(again.status).toBe(409);
    const update = await api(e.update, {
      ...as,
      body: { ...percent(code), coupon_id: coupon.coupon_id },
    });
    expect(update.status).toBe(409);
    expect(await audited(coupon.coupon_id, 'coupons.deleted')).toHaveLength(1);
  });
});

describe('mass update', () => {
  it('pre-applies, sets the expiry of, and deletes several coupons, skipping deleted ones', async () => {
    const made = await Promise.all([1, 2, 3].map(() => create({ code: fresh('MASS') })));
    const ids = made.map((coupon) => coupon.coupon_id);
    const view = async (id: number) =>
      (await api(e.view, { ...as, query: { coupon_id: id } })).data.coupon;

    const on = await api(e.massUpdate, {
      ...as,
      body: { action: 'preapplied', ids, preapplied: true },
    });
    expect(on.data).toEqual({ updated: 3 });
    expect((await view(ids[0] as number)).preapplied).toBe(true);

    const expiry = '2031-05-01T00:00:00.000Z';
    const expired = await api(e.massUpdate, {
      ...as,
      body: { action: 'expiry', ids: ids.slice(0, 2), expires_at: expiry },
    });
    expect(expired.data).toEqual({ updated: 2 });
    expect((await view(ids[1] as number)).expires_at).toBe(expiry);
    expect((await view(ids[2] as number)).expires_at).toBeNull();

    await api(e.delete, { ...as, body: { coupon_id: ids[2] as number } });
    const removed = await api(e.massUpdate, { ...as, body: { action: 'delete', ids } });
    expect(removed.data).toEqual({ updated: 2 });
    expect((await view(ids[0] as number)).state).toBe('deleted');

    const empty = await api(e.massUpdate, { ...as, body: { action: 'delete', ids: [] } });
    expect(empty.status).toBe(422);
    const unknown = await api(e.massUpdate, {
      ...as,
      body: { action: 'rename', ids } as never,
    });
    expect(unknown.status).toBe(422);
  });
});

describe('the pre-applied link', () => {
  const follow = (code: string, lang?: string, ip?: string) =>
    api(e.apply, { params: { code }, query: lang ? { lang } : {}, ...(ip ? { ip } : {}) });
  const couponCookie = (headers: Record<string, unknown>) =>
    [headers['set-cookie'] ?? []].flat().find((c) => String(c).startsWith('coupon='));

  it('sets the coupon cookie the order page reads, then opens the order page', async () => {
    const code = fresh('LINK');
    await create({ code, preapplied: true });
    const answer = await follow(code.toLowerCase(), 'fr');
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/fr/order-v2');
    expect(answer.headers['cache-control']).toBe('no-store');
    const cookie = String(couponCookie(answer.headers));
    expect(cookie).toContain(`coupon=${code};`);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Max-Age=\d{6,}/);
    expect(cookie).not.toMatch(/HttpOnly/);
    // The app in tests runs on http: no Secure flag, or the browser would drop it.
    expect(cookie).not.toMatch(/Secure/);
  });

  it('opens the order page without a cookie for a code that is not a usable pre-applied one', async () => {
    const plain = fresh('PLAIN');
    await create({ code: plain });
    const expired = fresh('OLD');
    const old = await create({ code: expired, preapplied: true });
    await app.db
      .update(coupons)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(coupons.id, old.coupon_id));
    const gone = fresh('GONELINK');
    const removed = await create({ code: gone, preapplied: true });
    await api(e.delete, { ...as, body: { coupon_id: removed.coupon_id } });
    for (const code of [plain, expired, gone, 'NOSUCHCODE', '%20', 'x'.repeat(90)]) {
      const answer = await follow(code, 'xx');
      expect(answer.status, code).toBe(302);
      expect(answer.headers.location).toBe('/en/order-v2');
      expect(couponCookie(answer.headers), code).toBeUndefined();
    }
  });

  it('counts against the coupon guessing limit: past it, the page opens without the cookie', async () => {
    const code = fresh('LIMIT');
    await create({ code, preapplied: true });
    const ip = '198.51.100.77';
    for (let i = 0; i < 30; i++) await follow('NOSUCHCODE', 'en', ip);
    const answer = await follow(code, 'en', ip);
    expect(answer.status).toBe(302);
    expect(couponCookie(answer.headers)).toBeUndefined();
    expect(couponCookie((await follow(code, 'en')).headers)).toBeDefined();
  });
});
