/**
 * A failed renewal is retried on days 1, 3 and 5 after the first failure, with access kept
 * through the grace period (BILLING_GRACE_DAYS, 7 by default); after the last retry fails,
 * the subscription ends as failed.
 */
export const RETRY_DAYS = [1, 3, 5] as const;

const DAY_MS = 86_400_000;

/** The first failure, from the grace end set then. */
export function firstFailureAt(graceUntil: Date, graceDays: number): Date {
  return new Date(graceUntil.getTime() - graceDays * DAY_MS);
}

/** The retry after `attemptsMade` retries, or null when none is left. */
export function retryAt(firstFailure: Date, attemptsMade: number): Date | null {
  const days = RETRY_DAYS[attemptsMade];
  return days === undefined ? null : new Date(firstFailure.getTime() + days * DAY_MS);
}

/** How many retries have come due by `now` (each is made once, in its turn). */
export function retriesDue(firstFailure: Date, now: Date): number {
  return RETRY_DAYS.filter((days) => firstFailure.getTime() + days * DAY_MS <= now.getTime())
    .length;
}
