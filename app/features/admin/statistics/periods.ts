import type { StatisticsRange } from '#shared/contracts/admin/statistics.ts';
import type { Granularity } from './date-range.ts';

// A chart's category axis holds every period of the range, so a day without a payment is
// a zero, not a gap the eye reads as a line between its neighbours.

/** The first day of each period of the range: `2026-11-01`, `2026-11-02` … or one per month. */
export function periodsOf(range: StatisticsRange, granularity: Granularity): string[] {
  const periods: string[] = [];
  const end = Date.parse(`${range.to}T00:00:00Z`);
  const start = new Date(`${range.from}T00:00:00Z`);
  if (granularity === 'month') start.setUTCDate(1);
  for (let at = start; at.getTime() <= end; ) {
    periods.push(at.toISOString().slice(0, 10));
    at =
      granularity === 'month'
        ? new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1))
        : new Date(at.getTime() + 86_400_000);
  }
  return periods;
}

/** The months of the range: `2026-10`, `2026-11`. */
export function monthsOf(range: StatisticsRange): string[] {
  return periodsOf(range, 'month').map((day) => day.slice(0, 7));
}

/** `rows` keyed by `period`, one for each of `periods`, `empty` where none was given. */
export function everyPeriod<T>(
  periods: readonly string[],
  rows: readonly T[],
  keyOf: (row: T) => string,
  empty: (period: string) => T,
): T[] {
  const byPeriod = new Map(rows.map((row) => [keyOf(row), row]));
  return periods.map((period) => byPeriod.get(period) ?? empty(period));
}
