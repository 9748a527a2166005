/** A unique index refused the row (PostgreSQL 23505), whichever driver reported it. */
export function isUniqueViolation(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause ?? error;
  return (cause as { code?: string }).code === '23505';
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
      const code = ((error as { cause?: { code?: string } }).cause ?? error) as { code?: string };
      if (attempt >= attempts || (code.code !== '40P01' && code.code !== '40001')) throw error;
    }
  }
}
