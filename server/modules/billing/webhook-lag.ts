import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.ts';

/** How far behind a gateway's events are applied (gateway-events.ts stores each with its outcome). */
export interface WebhookLag {
  gateway: string;
  /**
   * The longest wait from receipt to being applied among events applied in the last five
   * minutes, or the age of the oldest event still failed (the gateway sends it again), if
   * longer.
   */
  lagSeconds: number;
  /** Events received in the last day whose last attempt failed. */
  unapplied: number;
}

/** Per gateway that sent events in the last day, through the received_at index. */
export async function readWebhookLag(db: Database): Promise<WebhookLag[]> {
  const rows = await queryRows<{ gateway: string; lag: number; unapplied: number }>(
    db,
    sql`SELECT gateway::text AS gateway,
        greatest(
          coalesce(max(extract(epoch FROM processed_at - received_at))
            FILTER (WHERE outcome <> 'failed' AND processed_at > now() - interval '5 minutes'), 0),
          coalesce(extract(epoch FROM now() - min(received_at) FILTER (WHERE outcome = 'failed')), 0)
        )::float8 AS lag,
        count(*) FILTER (WHERE outcome = 'failed')::int AS unapplied
      FROM gateway_events
      WHERE received_at > now() - interval '1 day'
      GROUP BY gateway
      ORDER BY gateway`,
  );
  return rows.map((row) => ({
    gateway: row.gateway,
    lagSeconds: Math.max(0, Number(row.lag)),
    unapplied: Number(row.unapplied),
  }));
}
