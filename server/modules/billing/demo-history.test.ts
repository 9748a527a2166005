import { and, count, eq, like, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import {
  entitlements,
  invoiceCounters,
  invoices,
  mailOutbox,
  subscriptions,
  users,
} from '../../db/schema/index.ts';
import { seedDemoData } from '../../db/seed.ts';
import { createTestApp } from '../../test/test-app.ts';
import { billingSweep } from './billing-sweep.ts';
import { seedDemoBilling } from './demo-billing.ts';
import { demoPlans, seedDemoHistory } from './demo-history.ts';
import { planDemoHistory } from './demo-history-plan.ts';
import { lapseEndedPeriods, reconcile } from './reconciliation.ts';

const DAY_MS = 86_400_000;

describe('the demo billing history', async () => {
  const { app } = await createTestApp();
  await seedDemoData(app.db);
  const startedAt = app.payments.clock.now();
  const counts = await seedDemoHistory(app);
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(app.db, query);
  const snapshot = () =>
    rows<{ status: string; n: number; latest: string }>(
      sql`select status, count(*)::int as n, max(updated_at)::text as latest
          from subscriptions group by status order by status`,
    );

  it('adds about 2,000 customers, joined over 18 months, in several countries and languages', async () => {
    expect(counts?.customers).toBe(2000);
    const [made] = await rows<{
      n: number;
      first: Date;
      countries: number;
      langs: number;
      no_password: number;
    }>(
      sql`select count(*)::int as n, min(created_at) as first,
            count(distinct country_id)::int as countries, count(distinct locale)::int as langs,
            count(*) filter (where password_hash is null)::int as no_password
          from users where email like '%@example.net' or email like '%@example.org'`,
    );
    // The 36 customers seed.ts makes are at example.net too.
    expect(made?.n).toBe(2036);
    expect(made?.no_password).toBe(2036);
    expect(made?.countries).toBeGreaterThanOrEqual(20);
    expect(made?.langs).toBe(5);
    const first = new Date(made?.first as Date).getTime();
    expect(startedAt.getTime() - first).toBeGreaterThan(500 * DAY_MS);
    expect(startedAt.getTime() - first).toBeLessThan(560 * DAY_MS);
    const top = await rows<{ code: string }>(
      sql`select c.code from users u join countries c on c.id = u.country_id
          where u.email like '%@example.%' group by c.code order by count(*) desc limit 3`,
    );
    expect(top.map((row) => row.code)).toContain('US');
  });

  it('has invoices over 18 months on every gateway, in three currencies and many countries', async () => {
    const [spread] = await rows<{
      n: number;
      months: number;
      gateways: number;
      currencies: number;
      countries: number;
      no_country: number;
    }>(
      sql`select count(*)::int as n,
            count(distinct date_trunc('month', issued_at))::int as months,
            count(distinct gateway)::int as gateways, count(distinct currency)::int as currencies,
            count(distinct country)::int as countries,
            count(*) filter (where country is null)::int as no_country
          from invoices where gateway_ref like 'demo\\_%'`,
    );
    expect(spread?.n).toBe(counts?.invoices);
    expect(spread?.n).toBeGreaterThan(4000);
    expect(spread?.months).toBeGreaterThanOrEqual(18);
    expect(spread?.gateways).toBe(5);
    expect(spread?.currencies).toBe(3);
    expect(spread?.countries).toBeGreaterThanOrEqual(20);
    expect(spread?.no_country).toBe(0);
    // Every paid invoice has its succeeded payment and its lines.
    const [orphans] = await rows<{ unpaid: number; unlined: number }>(
      sql`select
            count(*) filter (where i.status = 'paid' and i.total > 0 and not exists (
              select 1 from payments p where p.invoice_id = i.id and p.status = 'succeeded'))::int as unpaid,
            count(*) filter (where not exists (
              select 1 from invoice_lines l where l.invoice_id = i.id))::int as unlined
          from invoices i where i.gateway_ref like 'demo\\_%'`,
    );
    expect(orphans).toEqual({ unpaid: 0, unlined: 0 });
  });

  it('ends with subscriptions in every status, most of them active', async () => {
    const statuses = Object.fromEntries((await snapshot()).map((row) => [row.status, row.n]));
    for (const status of [
      'active',
      'paused',
      'canceled',
      'expired',
      'refunded',
      'on_hold',
      'failed',
    ]) {
      expect(statuses[status], status).toBeGreaterThan(0);
    }
    const total = Object.values(statuses).reduce((sum, n) => sum + n, 0);
    expect(statuses.active).toBeGreaterThan(total / 3);
    // Plans changed at renewals: the same subscription billed different amounts.
    const [changed] = await rows<{ n: number }>(
      sql`select count(*)::int as n from (
            select subscription_id from invoices where gateway_ref like 'demo\\_%'
            group by subscription_id having count(distinct subtotal) > 1) as changed`,
    );
    expect(changed?.n).toBeGreaterThan(10);
    // Paused for a while and resumed: a gap between two periods of one subscription.
    const [resumed] = await rows<{ n: number }>(
      sql`select count(*)::int as n from (
            select period_start > lag(period_end) over (partition by subscription_id order by period_start) as gap
            from invoices where gateway_ref like 'demo\\_%' and subscription_id is not null) as periods
          where gap`,
    );
    expect(resumed?.n).toBeGreaterThan(0);
  });

  it('has failed payments, open and uncollectible invoices, full and partial refunds, coupons', async () => {
    const [money] = await rows<{
      failed: number;
      open: number;
      uncollectible: number;
      full: number;
      partial: number;
      refunds: number;
      mismatched: number;
      discounted: number;
      redemptions: number;
    }>(
      sql`select
            (select count(*)::int from payments where status = 'failed' and gateway_ref like 'demo\\_%') as failed,
            (select count(*)::int from invoices where status = 'open' and last_failure is not null
              and next_attempt_at is not null and gateway_ref like 'demo\\_%') as open,
            (select count(*)::int from invoices where status = 'uncollectible') as uncollectible,
            (select count(*)::int from invoices where amount_refunded > 0 and amount_refunded = total) as full,
            (select count(*)::int from invoices where amount_refunded > 0 and amount_refunded < total) as partial,
            (select count(*)::int from refunds) as refunds,
            (select count(*)::int from invoices i where amount_refunded <>
              coalesce((select sum(amount) from refunds r where r.invoice_id = i.id), 0)) as mismatched,
            (select count(*)::int from invoices where discount_total > 0 and coupon_id is not null) as discounted,
            (select count(*)::int from coupon_redemptions) as redemptions`,
    );
    expect(money?.failed).toBeGreaterThan(50);
    expect(money?.open).toBeGreaterThan(0);
    expect(money?.uncollectible).toBeGreaterThan(0);
    expect(money?.full).toBeGreaterThan(0);
    expect(money?.partial).toBeGreaterThan(0);
    expect(money?.refunds).toBe(counts?.refunds);
    expect(money?.mismatched).toBe(0);
    expect(money?.discounted).toBeGreaterThan(0);
    // Crypto orders never paid: Cryptomus's void invoice, no subscription, no number.
    const [unpaid] = await rows<{ n: number; numbered: number }>(
      sql`select count(*)::int as n, count(number)::int as numbered from invoices
          where gateway = 'cryptomus' and status = 'void' and subscription_id is null`,
    );
    expect(unpaid?.n).toBeGreaterThan(0);
    expect(unpaid?.numbered).toBe(0);
    const redeemed = await rows<{ code: string; times: number; n: number }>(
      sql`select c.code, c.times_redeemed::int as times, count(r.id)::int as n
          from coupons c left join coupon_redemptions r on r.coupon_id = c.id group by c.id`,
    );
    expect(redeemed.length).toBe(3);
    for (const coupon of redeemed) expect(coupon.times, coupon.code).toBe(coupon.n);
  });

  it('numbers the invoices in each year without gaps, and the counter goes on after them', async () => {
    const years = await rows<{ year: number; n: number; top: number; next: number; dupes: number }>(
      sql`select split_part(i.number, '-', 2)::int as year, count(*)::int as n,
            max(split_part(i.number, '-', 3)::int)::int as top, c.next,
            count(*)::int - count(distinct i.number)::int as dupes
          from invoices i join invoice_counters c on c.year = split_part(i.number, '-', 2)::int
          group by 1, c.next order by 1`,
    );
    expect(years.length).toBeGreaterThanOrEqual(2);
    for (const year of years) {
      expect(year.top, String(year.year)).toBe(year.n);
      expect(year.next, String(year.year)).toBe(year.n + 1);
      expect(year.dupes).toBe(0);
    }
    // Numbered in the order issued.
    const [outOfOrder] = await rows<{ n: number }>(
      sql`select count(*)::int as n from (
            select issued_at < lag(issued_at) over (order by number) as back
            from invoices where number like ${`INV-${years[0]?.year}-%`}) as ordered where back`,
    );
    expect(outOfOrder?.n).toBe(0);
  });

  it('grants access in the ledger as the gateways would: paying subscriptions now, ended ones not', async () => {
    const [ledger] = await rows<{
      missing: number;
      live_active: number;
      active: number;
      live_ended: number;
    }>(
      sql`select
            (select count(*)::int from subscriptions s where exists (
              select 1 from invoices i where i.subscription_id = s.id and i.status = 'paid')
              and not exists (select 1 from entitlements e where e.source_ref = 'subscription:' || s.id)) as missing,
            (select count(*)::int from subscriptions s join entitlements e
              on e.source_ref = 'subscription:' || s.id
              where s.status = 'active' and e.revoked_at is null and e.ends_at > now()) as live_active,
            (select count(*)::int from subscriptions where status = 'active') as active,
            (select count(*)::int from subscriptions s join entitlements e
              on e.source_ref = 'subscription:' || s.id
              where s.status in ('expired', 'refunded', 'failed', 'paused')
              and e.revoked_at is null and e.ends_at > now()) as live_ended`,
    );
    expect(ledger?.missing).toBe(0);
    expect(ledger?.live_active).toBe(ledger?.active);
    expect(ledger?.live_ended).toBe(0);
  });

  it('tells every ending on any day the demo may start', async () => {
    const plans = await demoPlans(app.db);
    for (let day = 0; day < 365; day += 73) {
      const story = planDemoHistory({
        now: new Date(startedAt.getTime() + day * DAY_MS),
        graceDays: 7,
        plans,
        bonusProductId: 1,
        countryCodes: new Set(['US', 'DE', 'GB', 'NL', 'FR', 'ES', 'RU', 'BR', 'IN', 'CA']),
      });
      const statuses = new Set(story.subscriptions.map((subscription) => subscription.status));
      expect([...statuses].sort(), `day ${day}`).toEqual([
        'active',
        'canceled',
        'expired',
        'failed',
        'on_hold',
        'paused',
        'refunded',
      ]);
      const partly = story.invoices.filter(
        (i) => i.amountRefunded > 0 && i.amountRefunded < i.total,
      );
      expect(partly.length, `day ${day}`).toBeGreaterThan(0);
    }
  });

  it('is the same story for the same day, and is written once', async () => {
    const input = {
      now: startedAt,
      graceDays: 7,
      plans: [],
      bonusProductId: 1,
      countryCodes: new Set(['US', 'NL', 'RU']),
    };
    expect(planDemoHistory(input)).toEqual(planDemoHistory(input));
    const before = await app.db.select({ n: count() }).from(users);
    expect(await seedDemoHistory(app)).toBeNull();
    expect(await app.db.select({ n: count() }).from(users)).toEqual(before);
  });

  it('is left alone by the running server: no reminder, retry, lapse or correction, even a month on', async () => {
    const before = await snapshot();
    await billingSweep(app);
    expect(await reconcile(app)).toEqual([]);
    expect(await lapseEndedPeriods(app)).toEqual([]);
    await app.payments.clock.advance(2 * DAY_MS);
    await app.payments.clock.advance(31 * DAY_MS);
    await billingSweep(app);
    expect(await lapseEndedPeriods(app)).toEqual([]);
    expect(await snapshot()).toEqual(before);
    const mails = await app.db
      .select({ n: count() })
      .from(mailOutbox)
      .where(like(mailOutbox.toAddress, '%@example.%'));
    expect(mails[0]?.n).toBe(0);
  });

  it('leaves the demo order as it was: the next invoice takes the number after the history', async () => {
    await seedDemoBilling(app);
    const [customer] = await app.db
      .select()
      .from(users)
      .where(eq(users.email, 'customer@example.com'));
    const [own] = await app.db
      .select()
      .from(subscriptions)
      .where(
        and(eq(subscriptions.userId, customer?.id as number), eq(subscriptions.gateway, 'sandbox')),
      );
    expect(own?.status).toBe('active');
    const [invoice] = await app.db
      .select()
      .from(invoices)
      .where(eq(invoices.subscriptionId, own?.id as number));
    const year = invoice?.issuedAt.getUTCFullYear() as number;
    const [counter] = await app.db
      .select()
      .from(invoiceCounters)
      .where(eq(invoiceCounters.year, year));
    expect(invoice?.number).toBe(
      `INV-${year}-${String((counter?.next ?? 0) - 1).padStart(6, '0')}`,
    );
    const [access] = await app.db
      .select({ n: count() })
      .from(entitlements)
      .where(eq(entitlements.userId, customer?.id as number));
    expect(access?.n).toBe(1);
  });
});
