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

/** SQLSTATEs of a database that is away: connection exceptions (class 08), shutting down or starting. */
const AWAY_STATES = new Set(['57P01', '57P02', '57P03']);
/** Node's and node-postgres's words for a connection that failed or went. */
const AWAY_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);
const AWAY_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end)/;

/**
 * Whether `error` (or what it wraps) says the database could not be reached or went away
 * mid-query (a restart, a failover): worth a 503 the client may retry, not a 500.
 */
export function isDatabaseAway(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('08') || AWAY_STATES.has(code))) return true;
    if (typeof code === 'string' && AWAY_CODES.has(code)) return true;
    if (AWAY_MESSAGES.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}
