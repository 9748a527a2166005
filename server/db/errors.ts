/** PostgreSQL's SQLSTATE: on the error Drizzle wraps (its `cause`), or the driver's own. */
function sqlState(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown }).cause ?? error;
  return (cause as { code?: string }).code;
}

/** A unique index refused the row (PostgreSQL 23505), whichever driver reported it. */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}

/** The unique index `name` refused the row (both drivers name it on the error). */
export function isUniqueViolationOf(error: unknown, name: string): boolean {
  const cause = (error as { cause?: unknown }).cause ?? error;
  return isUniqueViolation(error) && (cause as { constraint?: string }).constraint === name;
}

/**
 * Runs `work` (a whole transaction) again when PostgreSQL gave up on it as one of two
 * transactions waiting on each other (40P01) or could not serialize it (40001): a gateway's
 * webhook applying beside a staff change takes the same rows in another order.
 */
export async function retryOnDeadlock<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      const code = sqlState(error);
      if (attempt >= attempts || (code !== '40P01' && code !== '40001')) throw error;
    }
  }
}
