// §6 traffic limit: usage counts over the billing period. With a running subscription that is
// its current period (so the count resets on the renewal date); without one, the calendar
// month in UTC.

export interface Period {
  start: Date;
  end: Date;
}

export function calendarMonth(at: Date): Period {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { start, end };
}

/** The period `at` falls in: the subscription's when it holds `at`, else the month. */
export function usagePeriod(at: Date, subscription: Period | null): Period {
  if (subscription && subscription.start <= at && at < subscription.end) return subscription;
  return calendarMonth(at);
}
