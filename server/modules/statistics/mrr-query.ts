import { sql } from 'drizzle-orm';
import type { MrrResponse, StatisticsRange } from '#shared/contracts/admin/statistics.ts';
import { type Database, queryRows } from '../../db/client.ts';
import { addMonths, eachMonth, monthKey, monthStart } from './periods.ts';

// MRR per currency at each month's end and its movement during the month.
//
// Closed months come from statistics_mrr_months, which the invoice triggers keep (migration
// 0013): a subscription pays MRR at a month's end when one of its paid invoices' periods
// holds that instant, at the invoice's amount normalized to a month. That is exact once the
// month is over. The month we are in is not over: a subscription renewing on the 20th has no
// invoice covering the month's end yet on the 10th, so this month is measured at `now`
// instead, live, from the invoices paying now (an index on their period end) against last
// month's end (the per-subscription rollup) — some tens of thousands of rows at most.

export interface MonthFigures {
  month: string;
  currency: string;
  mrr: number;
  new: number;
  expansion: number;
  contraction: number;
  churn: number;
  reactivation: number;
  /** Subscriptions paying at the month's end (or now, for this month). */
  paying: number;
  /** Subscriptions that stopped paying during the month. */
  churned: number;
}

type Row = Record<keyof MonthFigures, string | number>;

const figures = (row: Row): MonthFigures => ({
  month: String(row.month),
  currency: String(row.currency),
  mrr: Number(row.mrr),
  new: Number(row.new),
  expansion: Number(row.expansion),
  contraction: Number(row.contraction),
  churn: Number(row.churn),
  reactivation: Number(row.reactivation),
  paying: Number(row.paying),
  churned: Number(row.churned),
});

/** The rollup's months from `from` to `to` (first days), both included. */
async function closedMonths(db: Database, from: string, to: string): Promise<MonthFigures[]> {
  const rows = await queryRows<Row>(
    db,
    sql`select month::text as month, currency, mrr, new, expansion, contraction, churn,
        reactivation, paying, churned
      from statistics_mrr_months
      where month between ${from}::date and ${to}::date
      order by month, currency`,
  );
  return rows.map(figures);
}

/** This month so far: paying now against paying at last month's end. */
async function monthToDate(db: Database, month: string, now: Date): Promise<MonthFigures[]> {
  const previous = addMonths(month, -1);
  const at = now.toISOString();
  const rows = await queryRows<Row>(
    db,
    sql`with paying_now as (
        select distinct on (i.subscription_id, i.currency) i.subscription_id, i.currency,
          statistics_monthly_rate(i.total - i.tax_total, i.period_start, i.period_end) as rate
        from invoices i join subscriptions s on s.id = i.subscription_id
        where i.status = 'paid' and i.subscription_id is not null
          and i.period_end >= ${at}::timestamptz and i.period_start < ${at}::timestamptz
          and i.amount_refunded < i.amount_paid and i.total - i.tax_total > 0
          and not s.onetime and s.gateway <> 'bonus'
        order by i.subscription_id, i.currency, i.period_start desc, i.id desc
      ), paying_before as (
        select subscription_id, currency, mrr as rate
        from statistics_mrr_subscription_months
        where month = ${previous}::date and mrr > 0
      ), moves as (
        select subscription_id, currency,
          coalesce(n.rate, 0) as now_rate, coalesce(b.rate, 0) as before_rate
        from paying_now n full join paying_before b using (subscription_id, currency)
        where coalesce(n.rate, 0) > 0 or coalesce(b.rate, 0) > 0
      ), classed as (
        select m.*, m.before_rate = 0 and exists (
            select 1 from statistics_mrr_subscription_months earlier
            where earlier.subscription_id = m.subscription_id and earlier.currency = m.currency
              and earlier.month < ${previous}::date and earlier.mrr > 0
          ) as came_back
        from moves m
      )
      select ${month}::text as month, currency,
        sum(now_rate)::bigint as mrr,
        coalesce(sum(now_rate) filter (where before_rate = 0 and not came_back), 0)::bigint as new,
        coalesce(sum(now_rate - before_rate)
          filter (where before_rate > 0 and now_rate > before_rate), 0)::bigint as expansion,
        coalesce(sum(before_rate - now_rate)
          filter (where now_rate > 0 and now_rate < before_rate), 0)::bigint as contraction,
        coalesce(sum(before_rate) filter (where now_rate = 0), 0)::bigint as churn,
        coalesce(sum(now_rate) filter (where came_back), 0)::bigint as reactivation,
        count(*) filter (where now_rate > 0) as paying,
        count(*) filter (where now_rate = 0) as churned
      from classed group by currency order by currency`,
  );
  return rows.map(figures);
}

/**
 * Every month from `from`'s to `to`'s (no later than this one), per currency that had any
 * recurring revenue in them; months without any at 0.
 */
export async function mrrMonths(
  db: Database,
  range: StatisticsRange,
  now: Date,
): Promise<MonthFigures[]> {
  const thisMonth = monthStart(now.toISOString().slice(0, 10));
  const first = monthStart(range.from);
  const last = monthStart(range.to) < thisMonth ? monthStart(range.to) : thisMonth;
  if (first > last) return [];
  const closedUntil = last < thisMonth ? last : addMonths(thisMonth, -1);
  const [closed, open] = await Promise.all([
    first <= closedUntil ? closedMonths(db, first, closedUntil) : [],
    last === thisMonth ? monthToDate(db, thisMonth, now) : [],
  ]);
  const found = [...closed, ...open];
  const byKey = new Map(found.map((row) => [`${row.month}|${row.currency}`, row]));
  const currencies = [
    ...new Set(
      found
        .filter((row) => row.mrr !== 0 || row.churn !== 0 || row.churned !== 0)
        .map((row) => row.currency),
    ),
  ].sort();
  return currencies.flatMap((currency) =>
    eachMonth(first, last).map(
      (month) =>
        byKey.get(`${month}|${currency}`) ?? {
          month,
          currency,
          mrr: 0,
          new: 0,
          expansion: 0,
          contraction: 0,
          churn: 0,
          reactivation: 0,
          paying: 0,
          churned: 0,
        },
    ),
  );
}

export async function mrr(db: Database, range: StatisticsRange, now: Date): Promise<MrrResponse> {
  const months = await mrrMonths(db, range, now);
  return {
    months: months.map(({ paying: _, churned: __, ...row }) => ({
      ...row,
      month: monthKey(row.month),
    })),
  };
}
