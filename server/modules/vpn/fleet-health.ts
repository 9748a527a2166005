import { sql } from 'drizzle-orm';
import { SERVER_STATUSES, type ServerStatus } from '#shared/vpn/fleet-rules.ts';
import { type Database, queryRows } from '../../db/client.ts';

/** The fleet as an operator watches it: servers by status, and how late the online ones report. */
export interface FleetHealth {
  servers: Record<ServerStatus, number>;
  /** The longest silence of an online node (its last report); 0 with none online. */
  reportLagSeconds: number;
}

/** Retired servers left out: they are gone from every list (vpn.ts). */
export async function readFleetHealth(db: Database): Promise<FleetHealth> {
  const rows = await queryRows<{ status: ServerStatus; count: number; lag: number }>(
    db,
    sql`SELECT status::text AS status, count(*)::int AS count,
        coalesce(max(extract(epoch FROM now() - last_seen_at)) FILTER (WHERE status = 'online'), 0)::float8
          AS lag
      FROM vpn_servers WHERE retired_at IS NULL GROUP BY status`,
  );
  const servers = Object.fromEntries(SERVER_STATUSES.map((status) => [status, 0])) as Record<
    ServerStatus,
    number
  >;
  let reportLagSeconds = 0;
  for (const row of rows) {
    servers[row.status] = Number(row.count);
    reportLagSeconds = Math.max(reportLagSeconds, Number(row.lag));
  }
  return { servers, reportLagSeconds };
}
