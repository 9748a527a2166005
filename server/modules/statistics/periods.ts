// UTC days and months as the statistics speak of them: `2026-11-05`, `2026-11`.

const DAY_MS = 86_400_000;

/** `2026-11-05` → `2026-11-01`. */
export const monthStart = (day: string) => `${day.slice(0, 7)}-01`;

/** The first day of the month `months` after the one `day` is in. */
export function addMonths(day: string, months: number): string {
  const date = new Date(`${monthStart(day)}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString().slice(0, 10);
}

/** The first day of every day or month from `from` to `to`, both included. */
export function eachPeriod(from: string, to: string, granularity: 'day' | 'month'): string[] {
  const periods: string[] = [];
  if (granularity === 'month') {
    for (let month = monthStart(from); month <= to; month = addMonths(month, 1))
      periods.push(month);
    return periods;
  }
  for (
    let at = Date.parse(`${from}T00:00:00Z`);
    at <= Date.parse(`${to}T00:00:00Z`);
    at += DAY_MS
  ) {
    periods.push(new Date(at).toISOString().slice(0, 10));
  }
  return periods;
}

/** The first day of every month from `from`'s to `to`'s, both included. */
export const eachMonth = (from: string, to: string) => eachPeriod(from, to, 'month');

/** `2026-11-01` → `2026-11`. */
export const monthKey = (month: string) => month.slice(0, 7);
