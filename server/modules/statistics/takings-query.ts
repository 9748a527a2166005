import { sql } from 'drizzle-orm';
import { GATEWAYS } from '#shared/billing/billing-values.ts';
import type {
  EarningsResponse,
  StatByCountryResponse,
  StatisticsRange,
  Takings,
} from '#shared/contracts/admin/statistics.ts';
import { type Database, queryRows } from '../../db/client.ts';
import { eachPeriod } from './periods.ts';

// Takings read from the daily rollups (statistics_daily_takings and _country_takings, kept by
// the triggers of migration 0013): a three-year range is at most ~1,100 days × currencies ×
// gateways rows, whatever the number of invoices behind them.

interface TakingsRow {
  currency: string;
  gross: string | number;
  refunds: string | number;
  payments: string | number;
}

function takings(row: TakingsRow): Takings {
  const gross = Number(row.gross);
  const refunds = Number(row.refunds);
  return {
    currency: row.currency,
    gross,
    refunds,
    net: gross - refunds,
    payments: Number(row.payments),
  };
}

const sums = sql`sum(gross)::bigint as gross, sum(refunds)::bigint as refunds,
  sum(payments)::bigint as payments`;

/** Per currency: the range's total, and its series with every day or month, empty ones at 0. */
export async function earnings(
  db: Database,
  range: StatisticsRange & { granularity: 'day' | 'month' },
): Promise<EarningsResponse> {
  const period = range.granularity === 'month' ? sql`date_trunc('month', day)::date` : sql`day`;
  const [series, byGateway] = await Promise.all([
    queryRows<TakingsRow & { period: string }>(
      db,
      sql`select currency, ${period}::text as period, ${sums}
        from statistics_daily_takings
        where day between ${range.from}::date and ${range.to}::date
        group by currency, 2 order by currency, 2`,
    ),
    queryRows<TakingsRow & { gateway: keyof typeof GATEWAYS }>(
      db,
      sql`select currency, gateway, ${sums}
        from statistics_daily_takings
        where day between ${range.from}::date and ${range.to}::date
        group by currency, gateway order by currency, gateway`,
    ),
  ]);

  const periods = eachPeriod(range.from, range.to, range.granularity);
  const perCurrency = new Map<string, Map<string, Takings>>();
  for (const row of series) {
    const rows = perCurrency.get(row.currency) ?? new Map<string, Takings>();
    rows.set(row.period, takings(row));
    perCurrency.set(row.currency, rows);
  }
  const currencies = [...perCurrency].map(([currency, rows]) => {
    const total = { currency, gross: 0, refunds: 0, net: 0, payments: 0 };
    const filled = periods.map((start) => {
      const { currency: _, ...figures } =
        rows.get(start) ?? takings({ currency, gross: 0, refunds: 0, payments: 0 });
      total.gross += figures.gross;
      total.refunds += figures.refunds;
      total.net += figures.net;
      total.payments += figures.payments;
      return { period: start, ...figures };
    });
    return { ...total, series: filled };
  });
  return {
    currencies,
    by_gateway: byGateway.map((row) => ({
      ...takings(row),
      gateway: row.gateway,
      service_id: GATEWAYS[row.gateway],
    })),
  };
}

/** §7 /invoices/stat-by-country: per buyer's country and currency, the largest first. */
export async function takingsByCountry(
  db: Database,
  range: StatisticsRange,
): Promise<StatByCountryResponse> {
  const rows = await queryRows<TakingsRow & { country: string }>(
    db,
    sql`select country, currency, ${sums}
      from statistics_daily_country_takings
      where day between ${range.from}::date and ${range.to}::date
      group by country, currency
      order by currency, sum(gross) - sum(refunds) desc, country`,
  );
  return {
    items: rows.map((row) => ({
      ...takings(row),
      country: row.country === '' ? null : row.country,
    })),
  };
}
