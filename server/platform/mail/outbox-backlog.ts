import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.ts';

/** Messages not yet handed to the SMTP server (state `outbox` or `retrying`, mailer.ts). */
export interface OutboxBacklog {
  pending: number;
  /** 0 when none is pending. */
  oldestPendingSeconds: number;
}

/**
 * With SMTP_URL a row is `outbox` while its first attempt runs (seconds) and `retrying` while
 * a job tries again (up to about an hour, mail-retry.ts); one left `outbox` is mail a process
 * dropped mid-send. Only a day back, through the created_at index: the table is a delivery
 * log that grows.
 */
export async function readOutboxBacklog(db: Database): Promise<OutboxBacklog> {
  const [row] = await queryRows<{ pending: number; oldest: number }>(
    db,
    sql`SELECT count(*)::int AS pending,
        coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest
      FROM mail_outbox
      WHERE created_at > now() - interval '1 day' AND status IN ('outbox', 'retrying')`,
  );
  return {
    pending: Number(row?.pending ?? 0),
    oldestPendingSeconds: Math.max(0, Number(row?.oldest ?? 0)),
  };
}
