// §6 traffic limit: usage counts over the billing period, which resets on the renewal date:
// with a running subscription, month-long windows from its period's start (a monthly plan's
// windows are its billing periods; a yearly plan's reset on the same day each month), the
// last one ending with the period; without one, the calendar month in UTC.

export interface Period {
  start: Date;
  end: Date;
}

export function calendarMonth(at: Date): Period {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { start, end };
}

/** `from` plus `months`, on the same day and time, or the month's last day when it is shorter. */
export function addMonths(from: Date, months: number): Date {
  const target = new Date(from.getTime());
  const day = from.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const last = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(day, last));
  return target;
}

/** The period `at` falls in: the subscription's month-long window holding it, else the month. */
export function usagePeriod(at: Date, subscription: Period | null): Period {
  if (!subscription || at < subscription.start || at >= subscription.end) return calendarMonth(at);
  const elapsed =
    (at.getUTCFullYear() - subscription.start.getUTCFullYear()) * 12 +
    at.getUTCMonth() -
    subscription.start.getUTCMonth();
  let months = Math.max(0, elapsed - 1);
  while (addMonths(subscription.start, months + 1) <= at) months += 1;
  const end = addMonths(subscription.start, months + 1);
  return {
    start: addMonths(subscription.start, months),
    end: end < subscription.end ? end : subscription.end,
  };
}
