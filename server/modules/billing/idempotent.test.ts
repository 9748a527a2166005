import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { billingEndpoints, type CheckoutResponse } from '#shared/contracts/billing.ts';
import { queryRows } from '../../db/client.ts';
import { idempotencyKeys } from '../../db/schema/index.ts';
import { CARDS, cardToken, openShop } from '../../test/billing-kit.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser, type TestSession } from '../../test/test-sessions.ts';

// An idempotency key stands for one request: sent again with other parameters it is refused,
// as Stripe refuses it, never answered with the first request's result.

const e = billingEndpoints;
const REFUSED = { code: 'idempotency_error', errors_info: ['errors.idempotency_error'] };

describe('idempotency keys', async () => {
  const { app } = await createTestApp();
  afterAll(() => app.close());
  const shop = await openShop(app);
  const { call } = shop;

  const order = async (session: TestSession, key: string, plan: string) => {
    const product = await shop.plan(plan);
    return {
      cookie: session.cookie,
      body: {
        product_id: product.id,
        addon_ids: [],
        payment: { service_id: 1 as const, token: await cardToken(app, CARDS.visa) },
        idempotency_key: key,
        lang: 'en' as const,
      },
    };
  };
  const chargesOf = async (session: TestSession) => {
    const [counts] = await queryRows<{ subs: number; paid: number }>(
      app.db,
      sql`select (select count(*)::int from subscriptions where user_id = ${session.user.id}) as subs,
                 (select count(*)::int from invoices where user_id = ${session.user.id} and status = 'paid') as paid`,
    );
    return counts;
  };

  it('refuses a key sent again with another order, and still answers the first one', async () => {
    const buyer = await signedInUser(app);
    const key = randomUUID();
    const first = await order(buyer, key, '1 month');
    const bought = await call(e.checkout, first);
    expect(bought.status, bought.text).toBe(200);

    const other = await call(e.checkout, await order(buyer, key, '1 year'));
    expect(other.status).toBe(400);
    expect(other.body).toEqual(REFUSED);

    // The same order again, its fields in another order: the first answer, charged once.
    const reordered = Object.fromEntries(Object.entries(first.body).reverse());
    const again = await call(e.checkout, {
      cookie: buyer.cookie,
      body: reordered as typeof first.body,
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(bought.body);
    expect(await chargesOf(buyer)).toEqual({ subs: 1, paid: 1 });
  });

  it('refuses the other of two different orders sent at once under one key', async () => {
    const buyer = await signedInUser(app);
    const key = randomUUID();
    const orders = [await order(buyer, key, '1 month'), await order(buyer, key, '1 year')];
    const answers = await Promise.all(orders.map((sent) => call(e.checkout, sent)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(answers.find((answer) => answer.status === 400)?.body).toEqual(REFUSED);
    expect(await chargesOf(buyer)).toEqual({ subs: 1, paid: 1 });
  });

  it('refuses an order key sent again through another order door', async () => {
    const buyer = await signedInUser(app);
    const sent = await order(buyer, randomUUID(), '1 month');
    expect((await call(e.checkout, sent)).status).toBe(200);
    const reactivate = await call(e.reactivate, sent);
    expect(reactivate.status).toBe(400);
    expect(reactivate.body).toEqual(REFUSED);
  });

  it('refuses a plan change key sent again for another plan', async () => {
    const buyer = await signedInUser(app);
    await shop.buy(buyer);
    const key = randomUUID();
    const yearly = await shop.plan('1 year');
    const family = await shop.plan('Family, 1 year');
    const changed = await call(e.change, {
      cookie: buyer.cookie,
      body: { product_id: yearly.id, idempotency_key: key },
    });
    expect(changed.status, changed.text).toBe(200);
    const other = await call(e.change, {
      cookie: buyer.cookie,
      body: { product_id: family.id, idempotency_key: key },
    });
    expect(other.status).toBe(400);
    expect(other.body).toEqual(REFUSED);
    const detail = await call(e.subscription, { cookie: buyer.cookie });
    expect(detail.data.subscription.plan.product_id).toBe(yearly.id);
  });

  it('answers a key taken before requests were hashed with its answer, as before', async () => {
    const buyer = await signedInUser(app);
    const key = randomUUID();
    const stored: CheckoutResponse = {
      status: 'completed',
      subscription_id: 4242,
      invoice_id: null,
      redirect_url: null,
    };
    await app.db.insert(idempotencyKeys).values({
      key: `checkout:${buyer.user.id}:${key}`,
      userId: buyer.user.id,
      requestHash: null,
      response: stored,
    });
    const answer = await call(e.checkout, await order(buyer, key, '1 year'));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(stored);
    expect(await chargesOf(buyer)).toEqual({ subs: 0, paid: 0 });
  });
});
