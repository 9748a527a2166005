import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import {
  type EnrollRequest,
  type EnrollResponse,
  NODE_MESSAGES,
  type PeersResponse,
  type ReportRequest,
  type ReportResponse,
} from '#shared/contracts/vpn-node.ts';
import { hostRoute, parsePool } from '#shared/vpn/addresses.ts';
import { type Database, queryRows } from '../../db/client.ts';
import { retryOnDeadlock } from '../../db/errors.ts';
import { vpnAccounts, vpnDevices, vpnServers } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { NodeCaller } from './node-auth.ts';
import { interfaceAddresses } from './server-presenter.ts';
import { syncVpnAccount } from './vpn-access.ts';
import type { VpnContext } from './vpn-context.ts';

/** Per-peer totals of the reports being counted. */
interface PeerTotals {
  rx: number;
  tx: number;
  handshake: Date | null;
}

/** A server counts as loaded by the busier of its CPU and its share of capacity in use. */
export function loadOf(cpu: number, activePeers: number, capacity: number): number {
  const share = capacity > 0 ? (activePeers / capacity) * 100 : 100;
  return Math.round(Math.min(100, Math.max(cpu, share)));
}

/**
 * The node API (DESIGN "VPN provisioning"): enrollment, the peers a node's interface must
 * have (a long poll on the server's peers version), and its numbered usage reports, each
 * counted once.
 */
export class NodeService {
  constructor(private readonly ctx: VpnContext) {}

  async enroll(node: NodeCaller, input: EnrollRequest): Promise<EnrollResponse> {
    if (node.retired) throw new AppError('forbidden', { info: NODE_MESSAGES.retired });
    const { db } = this.ctx;
    const now = new Date();
    const server = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(vpnServers)
        .where(eq(vpnServers.id, node.serverId))
        .for('update');
      if (!row) throw new AppError('unauthenticated');
      const keyChanged = row.publicKey !== null && row.publicKey !== input.public_key;
      // Another key on the same token is another machine: only after staff rotated the
      // token since the key was enrolled (a leaked token alone cannot swap the key).
      if (keyChanged && row.enrolledAt && row.enrolledAt > row.tokenRotatedAt) {
        throw new AppError('conflict', { info: NODE_MESSAGES.keyMismatch });
      }
      const [updated] = await tx
        .update(vpnServers)
        .set({
          publicKey: input.public_key,
          agentVersion: input.agent_version,
          enrolledAt: row.publicKey === input.public_key && row.enrolledAt ? row.enrolledAt : now,
          lastSeenAt: now,
          status: row.status === 'new' || row.status === 'offline' ? 'online' : row.status,
        })
        .where(eq(vpnServers.id, row.id))
        .returning();
      if (!updated) throw new AppError('unauthenticated');
      if (keyChanged || row.publicKey === null) {
        await recordAudit(tx, null, {
          action: 'servers.node_enrolled',
          actorId: null,
          subjectType: 'vpn_server',
          subjectId: row.id,
          data: { public_key: input.public_key, replaced: row.publicKey },
        });
      }
      // The devices' configurations name the old key: they must be fetched anew.
      if (keyChanged) {
        await tx
          .update(vpnDevices)
          .set({ configChangedAt: now })
          .where(eq(vpnDevices.serverId, row.id));
      }
      return { row: updated, statusChanged: updated.status !== row.status };
    });
    this.ctx.events.serversChanged([server.row.id], { statusChanged: server.statusChanged });
    return {
      server_id: server.row.id,
      name: server.row.name,
      listen_port: server.row.listenPort ?? server.row.endpointPort,
      interface_addresses: interfaceAddresses(server.row),
      report_interval_ms: this.ctx.config.vpnReportIntervalMs,
      poll_wait_ms: this.ctx.pollWaitMs,
    };
  }

  /**
   * The peers the node must have. With the version it has applied, the answer waits until a
   * change (the signal wakes it) or the wait is over; `closed` ends the wait early when the
   * node hangs up.
   */
  async peers(
    node: NodeCaller,
    since: number | undefined,
    closed: Promise<void>,
    waitMs = this.ctx.pollWaitMs,
  ): Promise<PeersResponse> {
    const waiter = since === undefined ? undefined : this.ctx.signal.arm(node.serverId, waitMs);
    try {
      let version = await this.versionOf(node.serverId);
      if (waiter && version.version === since) {
        await Promise.race([waiter.done, closed]);
        version = await this.versionOf(node.serverId);
      }
      if (since !== undefined && version.version === since) {
        return { version: version.version, changed: false, peers: [], retired: version.retired };
      }
      return { ...(await this.peerSet(node.serverId, version.retired)), version: version.version };
    } finally {
      waiter?.cancel();
    }
  }

  private async versionOf(serverId: number) {
    const [row] = await this.ctx.db
      .select({ version: vpnServers.peersVersion, retiredAt: vpnServers.retiredAt })
      .from(vpnServers)
      .where(eq(vpnServers.id, serverId));
    if (!row) throw new AppError('unauthenticated');
    return { version: row.version, retired: row.retiredAt !== null };
  }

  private async peerSet(serverId: number, retired: boolean) {
    const { db } = this.ctx;
    if (retired) return { changed: true, peers: [], retired };
    const [server] = await db
      .select({ ipv4Pool: vpnServers.ipv4Pool, ipv6Pool: vpnServers.ipv6Pool })
      .from(vpnServers)
      .where(eq(vpnServers.id, serverId));
    const pools = server
      ? [parsePool(server.ipv4Pool, 4), parsePool(server.ipv6Pool, 6)].flatMap((p) =>
          p ? [p] : [],
        )
      : [];
    const devices = await db
      .select({ publicKey: vpnDevices.publicKey, host: vpnDevices.host })
      .from(vpnDevices)
      .where(and(eq(vpnDevices.serverId, serverId), isNull(vpnDevices.blockedBy)));
    const peers = devices.flatMap(({ publicKey, host }) =>
      host === null
        ? []
        : [{ public_key: publicKey, allowed_ips: pools.map((pool) => hostRoute(pool, host)) }],
    );
    return { changed: true, peers, retired };
  }

  /**
   * Counts the reports past the last one counted of the node's stream, in order, in one
   * transaction with the stream's new position: a report sent twice counts once, and one
   * that was counted before its acknowledgement got lost is acknowledged again. Traffic of a
   * key that is not one of this server's devices (nor one that just moved off it) is ignored
   * and logged.
   */
  async report(node: NodeCaller, input: ReportRequest): Promise<ReportResponse> {
    const now = new Date();
    const result = await retryOnDeadlock(() =>
      this.ctx.db.transaction((tx) => this.countReports(tx, node.serverId, input, now)),
    );
    if (result.ignored > 0) {
      this.ctx.log.warn(
        { serverId: node.serverId, ignored: result.ignored },
        'a node reported traffic of peers that are not its own',
      );
    }
    this.ctx.events.serversChanged([node.serverId], { statusChanged: result.statusChanged });
    // Past the limit: the person's peers leave every node (the sync blocks them).
    for (const userId of result.reachedLimit) {
      await syncVpnAccount(this.ctx, userId).catch((error: unknown) =>
        this.ctx.log.error({ err: error, userId }, 'traffic limit not applied'),
      );
    }
    return { acked_seq: result.ackedSeq };
  }

  private async countReports(tx: Database, serverId: number, input: ReportRequest, now: Date) {
    const [server] = await tx
      .select({
        stream: vpnServers.reportStream,
        seq: vpnServers.reportSeq,
        status: vpnServers.status,
        capacity: vpnServers.capacity,
      })
      .from(vpnServers)
      .where(eq(vpnServers.id, serverId))
      .for('update');
    if (!server) throw new AppError('unauthenticated');
    const counted = server.stream === input.stream ? server.seq : 0;
    const seqs = input.reports.map((report) => report.seq);
    if (seqs.some((seq, i) => i > 0 && seq <= (seqs[i - 1] ?? 0))) {
      throw new AppError('bad_request', { info: NODE_MESSAGES.outOfOrder });
    }
    const fresh = input.reports.filter((report) => report.seq > counted);
    const totals = new Map<string, PeerTotals>();
    for (const report of fresh) {
      for (const peer of report.peers) {
        const seen = totals.get(peer.public_key) ?? { rx: 0, tx: 0, handshake: null };
        seen.rx += peer.rx;
        seen.tx += peer.tx;
        const handshake = peer.latest_handshake_at ? new Date(peer.latest_handshake_at) : null;
        if (handshake && (!seen.handshake || handshake > seen.handshake))
          seen.handshake = handshake;
        totals.set(peer.public_key, seen);
      }
    }
    const { ignored, reachedLimit } = await this.addTraffic(tx, serverId, totals);
    const latest = input.reports[input.reports.length - 1];
    const ackedSeq = Math.max(counted, latest?.seq ?? 0);
    const status =
      server.status === 'new' || server.status === 'offline' ? 'online' : server.status;
    await tx
      .update(vpnServers)
      .set({
        reportStream: input.stream,
        reportSeq: ackedSeq,
        lastSeenAt: now,
        status,
        ...(latest && latest.seq > counted
          ? {
              cpu: latest.cpu,
              activePeers: latest.active_peers,
              load: loadOf(latest.cpu, latest.active_peers, server.capacity),
            }
          : {}),
      })
      .where(eq(vpnServers.id, serverId));
    return { ackedSeq, ignored, reachedLimit, statusChanged: status !== server.status };
  }

  /**
   * Adds the traffic to the devices' totals and their people's period, one statement each
   * (so a report writes a row per active peer and person, and one for the server), and
   * answers who crossed their limit with it.
   */
  private async addTraffic(tx: Database, serverId: number, totals: Map<string, PeerTotals>) {
    if (totals.size === 0) return { ignored: 0, reachedLimit: [] as number[] };
    const devices = await tx
      .select({ id: vpnDevices.id, userId: vpnDevices.userId, publicKey: vpnDevices.publicKey })
      .from(vpnDevices)
      .where(
        and(
          inArray(vpnDevices.publicKey, [...totals.keys()]),
          or(eq(vpnDevices.serverId, serverId), eq(vpnDevices.previousServerId, serverId)),
        ),
      )
      .orderBy(vpnDevices.id);
    const ignored = totals.size - devices.length;
    const perDevice = devices.flatMap((device) => {
      const t = totals.get(device.publicKey);
      return t ? [{ ...device, ...t }] : [];
    });
    const moving = perDevice.filter((d) => d.rx + d.tx > 0 || d.handshake);
    if (moving.length > 0) {
      const rows = sql.join(
        moving.map(
          (d) => sql`(${d.id}::int, ${d.rx}::bigint, ${d.tx}::bigint, ${d.handshake}::timestamptz)`,
        ),
        sql`, `,
      );
      await tx.execute(sql`
        UPDATE vpn_devices AS d SET
          rx_bytes = d.rx_bytes + v.rx,
          tx_bytes = d.tx_bytes + v.tx,
          latest_handshake_at = GREATEST(d.latest_handshake_at, v.handshake)
        FROM (VALUES ${rows}) AS v(id, rx, tx, handshake)
        WHERE d.id = v.id`);
    }
    const perUser = new Map<number, { rx: number; tx: number }>();
    for (const d of moving) {
      const sum = perUser.get(d.userId) ?? { rx: 0, tx: 0 };
      sum.rx += d.rx;
      sum.tx += d.tx;
      perUser.set(d.userId, sum);
    }
    const traffic = [...perUser].filter(([, sum]) => sum.rx + sum.tx > 0).sort(([a], [b]) => a - b);
    if (traffic.length === 0) return { ignored, reachedLimit: [] as number[] };
    const rows = sql.join(
      traffic.map(([userId, sum]) => sql`(${userId}::int, ${sum.rx}::bigint, ${sum.tx}::bigint)`),
      sql`, `,
    );
    const crossed = await queryRows<{ user_id: number }>(
      tx,
      sql`UPDATE ${vpnAccounts} AS a SET
            period_rx = a.period_rx + v.rx,
            period_tx = a.period_tx + v.tx
          FROM (VALUES ${rows}) AS v(user_id, rx, tx)
          WHERE a.user_id = v.user_id
          RETURNING a.user_id,
            a.limit_bytes IS NOT NULL
              AND a.limit_reached_at IS NULL
              AND a.period_rx + a.period_tx >= a.limit_bytes AS crossed`,
    );
    const reachedLimit = crossed
      .filter((row) => (row as { crossed?: boolean }).crossed)
      .map((row) => Number(row.user_id));
    return { ignored, reachedLimit };
  }
}
