import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.ts';
import { SCHEMA } from './pg-boss-queue.ts';

/** How one queue stands: what the metrics report (server/modules/health/health-gauges.ts). */
export interface QueueStats {
  queue: string;
  /** Due and not yet taken (new, or waiting for a retry whose time has come). */
  waiting: number;
  /** Taken by a worker and not finished. */
  active: number;
  /** How long the oldest due job has waited; 0 when none waits. */
  oldestWaitingSeconds: number;
}

/**
 * Every queue, with its figures read from pg-boss's tables: the unfinished jobs only, which
 * its own index on waiting jobs (name, start_after) serves. A job whose start lies ahead is
 * not waiting yet.
 */
export async function readQueueStats(db: Database): Promise<QueueStats[]> {
  const schema = sql.raw(SCHEMA);
  const due = sql`j.state < 'active' AND j.start_after <= now()`;
  const rows = await queryRows<{
    queue: string;
    waiting: number;
    active: number;
    oldest: number;
  }>(
    db,
    sql`SELECT q.name AS queue,
        count(j.id) FILTER (WHERE ${due})::int AS waiting,
        count(j.id) FILTER (WHERE j.state = 'active')::int AS active,
        coalesce(extract(epoch FROM now() - min(j.start_after) FILTER (WHERE ${due})), 0)::float8
          AS oldest
      FROM ${schema}.queue q
      LEFT JOIN ${schema}.job j ON j.name = q.name AND j.state <= 'active'
      GROUP BY q.name
      ORDER BY q.name`,
  );
  return rows.map((row) => ({
    queue: row.queue,
    waiting: Number(row.waiting),
    active: Number(row.active),
    oldestWaitingSeconds: Math.max(0, Number(row.oldest)),
  }));
}
