import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/**
 * Reads in one transaction whose statements the server stops after `timeoutMs`: a read that
 * must not pile up on a struggling database (a metrics scrape) holds one connection, briefly.
 */
export function boundedRead<T>(
  db: Database,
  timeoutMs: number,
  read: (tx: Database) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql.raw(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`),
    );
    return read(tx as unknown as Database);
  });
}
