import type { BillingInterval } from '#shared/billing/billing-values.ts';

const DAY_MS = 86_400_000;

/**
 * `anchor` plus `steps` intervals. Months and years count on the calendar (UTC) from the
 * anchor each time, so a plan bought on the 31st renews on the 30th or 28th when a month is
 * shorter and on the 31st again when it is not, never drifting to an earlier day.
 */
export function addIntervals(anchor: Date, interval: BillingInterval, steps: number): Date {
  if (interval === 'day') return new Date(anchor.getTime() + steps * DAY_MS);
  if (interval === 'week') return new Date(anchor.getTime() + steps * 7 * DAY_MS);
  const months = interval === 'year' ? steps * 12 : steps;
  const target = new Date(anchor.getTime());
  const day = anchor.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}

/** The end of the period that starts at `start`, for a cycle anchored at `anchor`. */
export function periodEndAfter(
  anchor: Date,
  start: Date,
  interval: BillingInterval,
  intervalCount: number,
): Date {
  for (let step = intervalCount; ; step += intervalCount) {
    const end = addIntervals(anchor, interval, step);
    if (end.getTime() > start.getTime()) return end;
  }
}
