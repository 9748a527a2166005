import { sql } from 'drizzle-orm';
import type {
  StatisticsRange,
  SubscriptionStatsResponse,
} from '#shared/contracts/admin/statistics.ts';
import {
  RUNNING_STATUSES,
  type ServiceId,
  SUBSCRIPTION_STATUSES,
} from '#shared/subscription/actions.ts';
import { type Database, queryRows } from '../../db/client.ts';
import { mrrMonths } from './mrr-query.ts';
import { addMonths, eachMonth, monthKey, monthStart } from './periods.ts';

// Subscriptions now (by status: the status index; by plan: the running ones, tens of
// thousands at most), conversions from statistics_conversion_months, churn from the MRR
// months (paying at the month's start = paying at the previous month's end).

/** Statuses under which a subscription still runs (a canceled one until its period ends). */

export async function subscriptionStats(
  db: Database,
  range: StatisticsRange,
  now: Date,
): Promise<SubscriptionStatsResponse> {
  const first = monthStart(range.from);
  const [statuses, plans, starts, months] = await Promise.all([
    queryRows<{ status: string; count: string | number }>(
      db,
      sql`select status, count(*) as count from subscriptions group by status`,
    ),
    queryRows<{
      product_id: number;
      name: string;
      service_id: number;
      currency: string;
      count: string | number;
    }>(
      db,
      sql`select p.id as product_id, p.name, p.service_id, p.currency, r.count
        from (
          select product_id, count(*) as count from subscriptions
          where status in (${sql.join(
            RUNNING_STATUSES.map((status) => sql`${status}`),
            sql`, `,
          )})
          group by product_id
        ) r join products p on p.id = r.product_id
        order by r.count desc, p.id`,
    ),
    queryRows<{ month: string; started: number; converted: number }>(
      db,
      sql`select month::text as month, started, converted from statistics_conversion_months
        where month between ${first}::date and ${range.to}::date`,
    ),
    // From the month before the range: its end is the range's first month's start.
    mrrMonths(db, { from: addMonths(first, -1), to: range.to }, now),
  ]);

  const counted = new Map(statuses.map((row) => [row.status, Number(row.count)]));
  const startsByMonth = new Map(starts.map((row) => [row.month, row]));
  const paying = new Map<string, number>();
  const churned = new Map<string, number>();
  for (const row of months) {
    paying.set(row.month, (paying.get(row.month) ?? 0) + row.paying);
    churned.set(row.month, (churned.get(row.month) ?? 0) + row.churned);
  }
  const thisMonth = monthStart(now.toISOString().slice(0, 10));
  const shown = eachMonth(first, range.to);

  return {
    by_status: SUBSCRIPTION_STATUSES.map((status) => ({ status, count: counted.get(status) ?? 0 })),
    by_plan: plans.map((row) => ({
      product_id: row.product_id,
      name: row.name,
      service_id: row.service_id as ServiceId,
      currency: row.currency,
      count: Number(row.count),
    })),
    conversions: shown.map((month) => ({
      month: monthKey(month),
      started: Number(startsByMonth.get(month)?.started ?? 0),
      converted: Number(startsByMonth.get(month)?.converted ?? 0),
    })),
    churn: shown
      .filter((month) => month <= thisMonth)
      .map((month) => {
        const atStart = paying.get(addMonths(month, -1)) ?? 0;
        const stopped = churned.get(month) ?? 0;
        return {
          month: monthKey(month),
          active_at_start: atStart,
          churned: stopped,
          rate: atStart > 0 ? stopped / atStart : 0,
        };
      }),
  };
}
