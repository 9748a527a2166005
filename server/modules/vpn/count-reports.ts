import { sql } from 'drizzle-orm';
import type { ReportRequest } from '#shared/contracts/vpn-node.ts';
import type { ServerStatus } from '#shared/vpn/fleet-rules.ts';
import { type Database, queryRows } from '../../db/client.ts';

export interface Counted {
  /** Every report up to this number of the stream is counted. */
  ackedSeq: number;
  /** The server's status before and after (a silent node that reports is online again). */
  was: ServerStatus;
  status: ServerStatus;
  /** Keys reported that are none of the server's devices (nor one that just moved off it). */
  ignored: number;
  /** People whose period's traffic passed their limit with these reports. */
  reachedLimit: number[];
}

/**
 * Counts a node's reports in one statement, so a report costs one round trip and holds no
 * connection between statements: the server's row is locked first (two calls of one node
 * take turns, and the second sees the first's position), the reports past the stream's
 * counted position are summed per key, added to the devices' totals and their people's
 * period (in place: the columns are in no index), and the server's position, last contact
 * and load are moved on. The load is the busier of the CPU and the share of capacity with a
 * recent handshake. A report sent twice finds its number counted and adds nothing.
 */
export async function countReports(
  db: Database,
  serverId: number,
  input: ReportRequest,
): Promise<Counted> {
  const latest = input.reports[input.reports.length - 1];
  const peers = input.reports.flatMap((report) =>
    report.peers.map((peer) => ({
      seq: report.seq,
      k: peer.public_key,
      rx: peer.rx,
      tx: peer.tx,
      hs: peer.latest_handshake_at,
    })),
  );
  const [row] = await queryRows<{
    acked: string | number;
    was: ServerStatus;
    now: ServerStatus;
    peers: number;
    matched: number;
    crossed: number[] | string;
  }>(
    db,
    sql`WITH srv AS (
        SELECT id, status,
          CASE WHEN report_stream = ${input.stream} THEN report_seq ELSE 0 END AS counted
        FROM vpn_servers WHERE id = ${serverId} FOR UPDATE
      ),
      sent AS (
        SELECT x.* FROM srv, jsonb_to_recordset(${JSON.stringify(peers)}::jsonb)
          AS x(seq bigint, k text, rx bigint, tx bigint, hs timestamptz)
        WHERE x.seq > srv.counted
      ),
      peer AS (
        SELECT k, sum(rx)::bigint AS rx, sum(tx)::bigint AS tx, max(hs) AS hs
        FROM sent GROUP BY k
      ),
      dev AS (
        UPDATE vpn_devices d SET
          rx_bytes = d.rx_bytes + peer.rx,
          tx_bytes = d.tx_bytes + peer.tx,
          latest_handshake_at = GREATEST(d.latest_handshake_at, peer.hs)
        FROM peer
        WHERE d.public_key = peer.k
          AND (d.server_id = ${serverId} OR d.previous_server_id = ${serverId})
        RETURNING d.user_id, peer.rx, peer.tx
      ),
      per_user AS (
        SELECT user_id, sum(rx)::bigint AS rx, sum(tx)::bigint AS tx
        FROM dev GROUP BY user_id HAVING sum(rx) + sum(tx) > 0
      ),
      acct AS (
        UPDATE vpn_accounts a SET
          period_rx = a.period_rx + per_user.rx,
          period_tx = a.period_tx + per_user.tx
        FROM per_user WHERE a.user_id = per_user.user_id
        RETURNING a.user_id,
          a.limit_bytes IS NOT NULL AND a.limit_reached_at IS NULL
            AND a.period_rx + a.period_tx >= a.limit_bytes AS crossed
      ),
      fresh AS (
        SELECT ${latest?.seq ?? 0}::bigint AS seq, ${latest?.cpu ?? 0}::real AS cpu,
          ${latest?.active_peers ?? 0}::int AS active
      ),
      moved AS (
        UPDATE vpn_servers v SET
          report_stream = ${input.stream},
          report_seq = GREATEST(srv.counted, fresh.seq),
          last_seen_at = now(),
          status = CASE WHEN v.status IN ('new', 'offline')
            THEN 'online'::vpn_server_status ELSE v.status END,
          cpu = CASE WHEN fresh.seq > srv.counted THEN fresh.cpu ELSE v.cpu END,
          active_peers = CASE WHEN fresh.seq > srv.counted THEN fresh.active ELSE v.active_peers END,
          load = CASE WHEN fresh.seq > srv.counted
            THEN round(least(100, greatest(fresh.cpu,
              fresh.active * 100.0 / greatest(v.capacity, 1))))::smallint
            ELSE v.load END
        FROM srv, fresh WHERE v.id = srv.id
        RETURNING v.report_seq AS acked, srv.status AS was, v.status AS now
      )
      SELECT moved.acked, moved.was, moved.now,
        (SELECT count(*) FROM peer)::int AS peers,
        (SELECT count(*) FROM dev)::int AS matched,
        coalesce((SELECT array_agg(user_id) FROM acct WHERE crossed), '{}') AS crossed
      FROM moved`,
  );
  if (!row) throw new Error(`no VPN server ${serverId}`);
  // node-postgres reads an int[] as an array, PGlite too; be lenient with the text form.
  const crossed = Array.isArray(row.crossed)
    ? row.crossed
    : String(row.crossed).replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
  return {
    ackedSeq: Number(row.acked),
    was: row.was,
    status: row.now,
    ignored: Number(row.peers) - Number(row.matched),
    reachedLimit: crossed.map(Number),
  };
}
