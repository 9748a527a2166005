import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { statisticsEndpoints as e } from '#shared/contracts/admin/statistics.ts';
import { queryRows } from '../../db/client.ts';
import { invoices, refunds, subscriptions } from '../../db/schema/index.ts';
import { endpointClient } from '../../test/api-client.ts';
import { openShop } from '../../test/billing-kit.ts';
import { addInvoice, addPeriods, addRefund, addSubscription } from '../../test/statistics-books.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser } from '../../test/test-sessions.ts';
import { createUser } from '../../test/test-users.ts';

// Staff's statistics over hand-made books (each block in a year of its own, so the blocks do
// not see each other's figures) and over a real purchase through the sandbox. The figures
// come from the rollups the database's triggers keep; the last block checks those against
// the raw books after changes of every kind.
const { app } = await createTestApp();
const shop = await openShop(app);
const api = endpointClient(app);
const admin = await signedInUser(app, { role: 'ADMIN' });
const as = { cookie: admin.cookie };
const buyer = await createUser(app.db, { email: 'stats-buyer@example.com' });
const plan = await shop.plan('1 month', 'USD');

describe('earnings and takings by country', () => {
  const books = (async () => {
    const first = await addInvoice(app.db, {
      amount: 1000,
      paidAt: '2021-03-01T23:30:00Z',
      country: 'DE',
    });
    await addInvoice(app.db, {
      amount: 500,
      gateway: 'paypal',
      paidAt: '2021-03-02T00:10:00Z',
      country: 'FR',
    });
    await addInvoice(app.db, {
      amount: 700,
      currency: 'EUR',
      paidAt: '2021-03-02T12:00:00Z',
      country: null,
    });
    // Owed, not paid: no takings.
    await addInvoice(app.db, { amount: 999, status: 'open', paidAt: '2021-03-03T00:00:00Z' });
    await addRefund(app.db, first, 300, '2021-04-10T08:00:00Z');
  })();

  it('sums per currency by day, never across currencies, refunds on the day given', async () => {
    await books;
    const answer = await api(e.earnings, {
      ...as,
      query: { from: '2021-03-01', to: '2021-04-30', granularity: 'day' },
    });
    expect(answer.status).toBe(200);
    const [eur, usd] = answer.data.currencies;
    expect(usd).toMatchObject({
      currency: 'USD',
      gross: 1500,
      refunds: 300,
      net: 1200,
      payments: 2,
    });
    expect(eur).toMatchObject({ currency: 'EUR', gross: 700, refunds: 0, net: 700, payments: 1 });
    // Every day of the range, empty ones at 0: a chart's axis needs no gaps.
    expect(usd?.series).toHaveLength(61);
    const day = (d: string) => usd?.series.find((point) => point.period === d);
    expect(day('2021-03-01')).toEqual({
      period: '2021-03-01',
      gross: 1000,
      refunds: 0,
      net: 1000,
      payments: 1,
    });
    expect(day('2021-03-02')).toMatchObject({ gross: 500, payments: 1 });
    expect(day('2021-03-03')).toMatchObject({ gross: 0, payments: 0 });
    expect(day('2021-04-10')).toMatchObject({ gross: 0, refunds: 300, net: -300 });
    expect(answer.data.by_gateway).toEqual([
      {
        currency: 'EUR',
        gateway: 'stripe',
        service_id: 1,
        gross: 700,
        refunds: 0,
        net: 700,
        payments: 1,
      },
      {
        currency: 'USD',
        gateway: 'stripe',
        service_id: 1,
        gross: 1000,
        refunds: 300,
        net: 700,
        payments: 1,
      },
      {
        currency: 'USD',
        gateway: 'paypal',
        service_id: 2,
        gross: 500,
        refunds: 0,
        net: 500,
        payments: 1,
      },
    ]);
  });

  it('groups by month, a month by its first day, and counts a refund in its own range', async () => {
    await books;
    const months = await api(e.earnings, {
      ...as,
      query: { from: '2021-03-15', to: '2021-04-30', granularity: 'month' },
    });
    const usd = months.data.currencies.find((c) => c.currency === 'USD');
    // The range starts on the 15th: March's takings before it are not in it.
    expect(usd?.series).toEqual([
      { period: '2021-03-01', gross: 0, refunds: 0, net: 0, payments: 0 },
      { period: '2021-04-01', gross: 0, refunds: 300, net: -300, payments: 0 },
    ]);
    const april = await api(e.earnings, { ...as, query: { from: '2021-04-01', to: '2021-04-30' } });
    expect(april.data.currencies).toEqual([
      expect.objectContaining({ currency: 'USD', gross: 0, refunds: 300, net: -300 }),
    ]);
  });

  it('answers §7 stat-by-country per country and currency, no country as null', async () => {
    await books;
    const answer = await api(e.byCountry, {
      ...as,
      query: { from: '2021-01-01', to: '2021-12-31' },
    });
    expect(answer.status).toBe(200);
    expect(answer.data.items).toEqual([
      { country: null, currency: 'EUR', gross: 700, refunds: 0, net: 700, payments: 1 },
      { country: 'DE', currency: 'USD', gross: 1000, refunds: 300, net: 700, payments: 1 },
      { country: 'FR', currency: 'USD', gross: 500, refunds: 0, net: 500, payments: 1 },
    ]);
  });
});

describe('MRR, conversions and churn over closed months', () => {
  const books = (async () => {
    const sub = (createdAt: string, more: Partial<Parameters<typeof addSubscription>[1]> = {}) =>
      addSubscription(app.db, { userId: buyer.id, productId: plan.id, createdAt, ...more });
    // A: monthly 10.00 from mid-January, three periods, then stops.
    const a = await sub('2022-01-15T10:00:00Z');
    await addPeriods(app.db, a, [
      ['2022-01-15T10:00:00Z', '2022-02-15T10:00:00Z', 1000],
      ['2022-02-15T10:00:00Z', '2022-03-15T10:00:00Z', 1000],
      ['2022-03-15T10:00:00Z', '2022-04-15T10:00:00Z', 1000],
    ]);
    // B: yearly 120.00 from February: 10.00 a month.
    const b = await sub('2022-02-10T00:00:00Z');
    await addPeriods(app.db, b, [['2022-02-10T00:00:00Z', '2023-02-10T00:00:00Z', 12000]]);
    // C: up in February, down in March, lapses in April, back in May, gone in June.
    const c = await sub('2022-01-10T00:00:00Z');
    await addPeriods(app.db, c, [
      ['2022-01-10T00:00:00Z', '2022-02-10T00:00:00Z', 1000],
      ['2022-02-10T00:00:00Z', '2022-03-10T00:00:00Z', 2000],
      ['2022-03-10T00:00:00Z', '2022-04-10T00:00:00Z', 1500],
      ['2022-05-20T00:00:00Z', '2022-06-20T00:00:00Z', 1500],
    ]);
    // D: in euros, one month.
    const d = await sub('2022-01-05T00:00:00Z', { currency: 'EUR' });
    await addPeriods(app.db, d, [['2022-01-05T00:00:00Z', '2022-02-05T00:00:00Z', 900]]);
    // E: ordered, never paid. F: a one-time purchase, paid: a conversion, not recurring.
    const e2 = await sub('2022-01-20T00:00:00Z', { status: 'failed' });
    await addInvoice(app.db, { subscriptionId: e2.id, amount: 1000, status: 'open' });
    const f = await sub('2022-01-25T00:00:00Z', { onetime: true });
    await addPeriods(app.db, f, [['2022-01-25T00:00:00Z', '2022-04-25T00:00:00Z', 3000]]);
    // G: paid in January, then given back in full: neither revenue nor recurring.
    const g = await sub('2022-01-03T00:00:00Z');
    await addPeriods(app.db, g, [['2022-01-03T00:00:00Z', '2022-02-03T00:00:00Z', 1000]]);
    await app.db
      .update(invoices)
      .set({ amountRefunded: 1000 })
      .where(eq(invoices.subscriptionId, g.id));
  })();

  it('moves MRR by new, expansion, contraction, churn and reactivation, per currency', async () => {
    await books;
    const answer = await api(e.mrr, { ...as, query: { from: '2022-01-01', to: '2022-06-30' } });
    expect(answer.status).toBe(200);
    const zero = { new: 0, expansion: 0, contraction: 0, churn: 0, reactivation: 0 };
    expect(answer.data.months.filter((m) => m.currency === 'USD')).toEqual([
      { ...zero, month: '2022-01', currency: 'USD', mrr: 2000, new: 2000 },
      { ...zero, month: '2022-02', currency: 'USD', mrr: 4000, new: 1000, expansion: 1000 },
      { ...zero, month: '2022-03', currency: 'USD', mrr: 3500, contraction: 500 },
      { ...zero, month: '2022-04', currency: 'USD', mrr: 1000, churn: 2500 },
      { ...zero, month: '2022-05', currency: 'USD', mrr: 2500, reactivation: 1500 },
      { ...zero, month: '2022-06', currency: 'USD', mrr: 1000, churn: 1500 },
    ]);
    expect(answer.data.months.filter((m) => m.currency === 'EUR')).toEqual([
      { ...zero, month: '2022-01', currency: 'EUR', mrr: 900, new: 900 },
      { ...zero, month: '2022-02', currency: 'EUR', mrr: 0, churn: 900 },
      ...['03', '04', '05', '06'].map((m) => ({
        ...zero,
        month: `2022-${m}`,
        currency: 'EUR',
        mrr: 0,
      })),
    ]);
  });

  it('counts orders started and converted, and churn against those paying at the start', async () => {
    await books;
    const answer = await api(e.subscriptions, {
      ...as,
      query: { from: '2022-01-01', to: '2022-06-30' },
    });
    expect(answer.status).toBe(200);
    expect(answer.data.conversions.slice(0, 3)).toEqual([
      { month: '2022-01', started: 6, converted: 5 },
      { month: '2022-02', started: 1, converted: 1 },
      { month: '2022-03', started: 0, converted: 0 },
    ]);
    expect(answer.data.churn).toEqual([
      { month: '2022-01', active_at_start: 0, churned: 0, rate: 0 },
      // End of January: A, C and D paying; D stops in February.
      { month: '2022-02', active_at_start: 3, churned: 1, rate: 1 / 3 },
      { month: '2022-03', active_at_start: 3, churned: 0, rate: 0 },
      { month: '2022-04', active_at_start: 3, churned: 2, rate: 2 / 3 },
      { month: '2022-05', active_at_start: 1, churned: 0, rate: 0 },
      { month: '2022-06', active_at_start: 2, churned: 1, rate: 0.5 },
    ]);
  });
});

describe('this month, from a purchase through the sandbox', () => {
  it('counts the order as paid today, as new MRR now, and the subscription by status and plan', async () => {
    const customer = await signedInUser(app, { email: 'stats-live@example.com' });
    const today = new Date().toISOString().slice(0, 10);
    const before = await api(e.earnings, { ...as, query: { from: today, to: today } });
    const usdBefore = before.data.currencies.find((c) => c.currency === 'USD')?.gross ?? 0;

    const order = await shop.buy(customer);
    expect(order.status).toBe(200);

    const after = await api(e.earnings, { ...as, query: { from: today, to: today } });
    const [invoice] = await app.db
      .select()
      .from(invoices)
      .where(eq(invoices.userId, customer.user.id));
    expect(invoice?.status).toBe('paid');
    const usd = after.data.currencies.find((c) => c.currency === 'USD');
    expect((usd?.gross ?? 0) - usdBefore).toBe(invoice?.amountPaid);

    const month = today.slice(0, 7);
    const mrr = await api(e.mrr, { ...as, query: { from: `${month}-01`, to: today } });
    expect(mrr.status, JSON.stringify(mrr.body)).toBe(200);
    expect(mrr.data.months).toEqual([
      {
        month,
        currency: 'USD',
        mrr: plan.amount,
        new: plan.amount,
        expansion: 0,
        contraction: 0,
        churn: 0,
        reactivation: 0,
      },
    ]);

    const stats = await api(e.subscriptions, { ...as, query: { from: today, to: today } });
    const [mine] = await app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, customer.user.id));
    expect(stats.data.by_status.find((s) => s.status === mine?.status)?.count).toBeGreaterThan(0);
    expect(stats.data.by_plan).toContainEqual(
      expect.objectContaining({ product_id: plan.id, currency: 'USD', service_id: 1 }),
    );
    expect(stats.data.conversions).toEqual([
      expect.objectContaining({ month, started: 1, converted: 1 }),
    ]);
  });
});

describe('the rollups', () => {
  /** What the rollups hold, and what the raw books say they should. */
  async function compare() {
    const held = await queryRows(
      app.db,
      sql`select day::text, currency, gateway::text, gross::bigint::text, refunds::bigint::text,
          payments from statistics_daily_takings
        where gross <> 0 or refunds <> 0 or payments <> 0 order by 1, 2, 3`,
    );
    const books = await queryRows(
      app.db,
      sql`select day::text, currency, gateway::text, sum(gross)::bigint::text as gross,
          sum(refunds)::bigint::text as refunds, sum(payments)::int as payments from (
          select (paid_at at time zone 'UTC')::date as day, currency, gateway,
            amount_paid as gross, 0 as refunds, 1 as payments
          from invoices where status = 'paid' and paid_at is not null
          union all
          select (created_at at time zone 'UTC')::date, currency, gateway, 0, amount, 0
          from refunds) t
        group by 1, 2, 3 order by 1, 2, 3`,
    );
    const heldByCountry = await queryRows(
      app.db,
      sql`select day::text, currency, country, gross::bigint::text, refunds::bigint::text, payments
        from statistics_daily_country_takings
        where gross <> 0 or refunds <> 0 or payments <> 0 order by 1, 2, 3`,
    );
    const booksByCountry = await queryRows(
      app.db,
      sql`select day::text, currency, country, sum(gross)::bigint::text as gross,
          sum(refunds)::bigint::text as refunds, sum(payments)::int as payments from (
          select (paid_at at time zone 'UTC')::date as day, currency,
            coalesce(country, '') as country, amount_paid as gross, 0 as refunds, 1 as payments
          from invoices where status = 'paid' and paid_at is not null
          union all
          select (r.created_at at time zone 'UTC')::date, r.currency, coalesce(i.country, ''),
            0, r.amount, 0
          from refunds r join invoices i on i.id = r.invoice_id) t
        group by 1, 2, 3 order by 1, 2, 3`,
    );
    expect(held).toEqual(books);
    expect(heldByCountry).toEqual(booksByCountry);
  }

  const mrrHeld = () =>
    queryRows(
      app.db,
      sql`select month::text, currency, mrr::text, new::text, expansion::text,
          contraction::text, churn::text, reactivation::text, paying, churned
        from statistics_mrr_months
        where mrr <> 0 or churn <> 0 or paying <> 0 or churned <> 0 order by 1, 2`,
    );
  const conversionsHeld = () =>
    queryRows(
      app.db,
      sql`select month::text, started, converted from statistics_conversion_months
        where started <> 0 or converted <> 0 order by 1`,
    );

  it('stay exact when an invoice changes, moves, is refunded or goes away', async () => {
    const sub = await addSubscription(app.db, {
      userId: buyer.id,
      productId: plan.id,
      createdAt: '2023-05-01T00:00:00Z',
    });
    const paid = await addInvoice(app.db, {
      subscriptionId: sub.id,
      amount: 2500,
      periodStart: '2023-05-01T00:00:00Z',
      periodEnd: '2023-06-01T00:00:00Z',
      country: 'NL',
    });
    const open = await addInvoice(app.db, {
      subscriptionId: sub.id,
      amount: 2500,
      status: 'open',
      periodStart: '2023-06-01T00:00:00Z',
      periodEnd: '2023-07-01T00:00:00Z',
    });
    await compare();

    // The renewal gets paid late, for less, and the buyer's country is corrected.
    await app.db
      .update(invoices)
      .set({
        status: 'paid',
        amountPaid: 2000,
        total: 2000,
        paidAt: new Date('2023-06-03T09:00:00Z'),
      })
      .where(eq(invoices.id, open.invoice.id));
    await app.db.update(invoices).set({ country: 'BE' }).where(eq(invoices.id, paid.invoice.id));
    await addRefund(app.db, paid, 500, '2023-06-20T00:00:00Z');
    await compare();
    // A refund moved to another day and amount (a gateway's correction), then one removed.
    const second = await addRefund(app.db, paid, 100, '2023-06-21T00:00:00Z');
    await app.db
      .update(refunds)
      .set({ amount: 150, createdAt: new Date('2023-06-22T00:00:00Z') })
      .where(eq(refunds.id, second?.id ?? 0));
    await compare();
    await app.db.delete(refunds).where(eq(refunds.id, second?.id ?? 0));
    await compare();

    const answer = await api(e.mrr, { ...as, query: { from: '2023-05-01', to: '2023-07-31' } });
    expect(answer.data.months.filter((m) => m.currency === 'USD')).toEqual([
      expect.objectContaining({ month: '2023-05', mrr: 2500, new: 2500 }),
      expect.objectContaining({ month: '2023-06', mrr: 2000, contraction: 500 }),
      expect.objectContaining({ month: '2023-07', mrr: 0, churn: 2000 }),
    ]);

    // The invoice goes away (the books never do this; the rollups still follow).
    await app.db.delete(invoices).where(eq(invoices.id, paid.invoice.id));
    await compare();
    const gone = await api(e.mrr, { ...as, query: { from: '2023-05-01', to: '2023-07-31' } });
    expect(gone.data.months.filter((m) => m.currency === 'USD')).toEqual([
      expect.objectContaining({ month: '2023-05', mrr: 0, new: 0 }),
      expect.objectContaining({ month: '2023-06', mrr: 2000, new: 2000 }),
      expect.objectContaining({ month: '2023-07', mrr: 0, churn: 2000 }),
    ]);
  });

  it('follow a bulk insert, and rebuilding every subscription from scratch changes nothing', async () => {
    const subs = await app.db
      .insert(subscriptions)
      .values(
        Array.from({ length: 120 }, (_, index) => ({
          userId: buyer.id,
          gateway: 'paypal' as const,
          gatewayRef: `bulk-${index}`,
          serviceId: 2,
          productId: plan.id,
          status: 'active' as const,
          paymentMethodType: 'paypal' as const,
          currency: index % 3 === 0 ? 'EUR' : 'USD',
          amount: 1000,
          gatewayUpdatedAt: new Date('2024-01-01T00:00:00Z'),
          createdAt: new Date(Date.UTC(2024, 0, 1 + (index % 60))),
        })),
      )
      .returning();
    await app.db.insert(invoices).values(
      subs.flatMap((row, index) =>
        Array.from({ length: 1 + (index % 5) }, (_, n) => ({
          userId: buyer.id,
          subscriptionId: row.id,
          gateway: row.gateway,
          gatewayRef: `bulk-${index}-${n}`,
          status: 'paid' as const,
          currency: row.currency,
          subtotal: 1000 + 100 * (index % 4),
          total: 1000 + 100 * (index % 4),
          amountPaid: 1000 + 100 * (index % 4),
          periodStart: new Date(row.createdAt.getTime() + n * 30 * 86_400_000),
          periodEnd: new Date(row.createdAt.getTime() + (n + 1) * 30 * 86_400_000),
          paidAt: new Date(row.createdAt.getTime() + n * 30 * 86_400_000),
          lang: 'en',
          buyer: { name: 'Bulk', email: 'bulk@example.com', lines: [] },
          country: ['US', 'DE', null][index % 3] ?? null,
          gatewayUpdatedAt: row.createdAt,
        })),
      ),
    );
    await compare();
    const [mrrBefore, conversionsBefore] = [await mrrHeld(), await conversionsHeld()];
    await app.db.execute(
      sql`select statistics_refresh_subscriptions(array_agg(id)) from subscriptions`,
    );
    expect(await mrrHeld()).toEqual(mrrBefore);
    expect(await conversionsHeld()).toEqual(conversionsBefore);
    // The monthly sums are the sums of the subscriptions' months.
    const summed = await queryRows(
      app.db,
      sql`select month::text, currency, sum(mrr)::text as mrr, sum(new)::text as new,
          sum(expansion)::text as expansion, sum(contraction)::text as contraction,
          sum(churn)::text as churn, sum(reactivation)::text as reactivation,
          (count(*) filter (where mrr > 0))::int as paying,
          (count(*) filter (where churn > 0))::int as churned
        from statistics_mrr_subscription_months group by 1, 2
        having sum(mrr) <> 0 or sum(churn) <> 0 order by 1, 2`,
    );
    expect(summed).toEqual(mrrBefore);
  });
});

describe('ranges', () => {
  it('refuses a range backwards, too long, or a bad day or granularity, under the field', async () => {
    for (const [field, query] of [
      ['to', { from: '2024-05-02', to: '2024-05-01' }],
      ['from', { from: '2020-01-01', to: '2024-01-01' }],
      ['from', { from: '2024-02-30', to: '2024-03-01' }],
      ['to', { from: '2024-01-01', to: 'yesterday' }],
      ['granularity', { from: '2024-01-01', to: '2024-01-31', granularity: 'week' }],
    ] as const) {
      for (const endpoint of [e.earnings, e.byCountry, e.mrr, e.subscriptions]) {
        if (field === 'granularity' && endpoint !== e.earnings) continue;
        const answer = await api(endpoint, { ...as, query: query as never });
        expect(answer.status, `${endpoint.path} ${JSON.stringify(query)}`).toBe(422);
        expect(Object.keys(answer.body.errors_validation as object)).toEqual([field]);
      }
    }
  });

  it('is staff only: the author is refused', async () => {
    const author = await signedInUser(app, { role: 'AUTHOR' });
    const answer = await api(e.earnings, {
      cookie: author.cookie,
      query: { from: '2024-01-01', to: '2024-01-31' },
    });
    expect(answer.status).toBe(403);
  });
});
