import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  type EnrollRequest,
  type EnrollResponse,
  NODE_MESSAGES,
  type PeersResponse,
  type ReportRequest,
  type ReportResponse,
} from '#shared/contracts/vpn-node.ts';
import { hostRoute, parsePool } from '#shared/vpn/addresses.ts';
import type { Database } from '../../db/client.ts';
import { retryOnDeadlock } from '../../db/errors.ts';
import { vpnDevices, vpnServers } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { countReports } from './count-reports.ts';
import type { NodeCaller } from './node-auth.ts';
import { interfaceAddresses } from './server-presenter.ts';
import { syncVpnAccount } from './vpn-access.ts';
import type { VpnContext } from './vpn-context.ts';

/** Each poll reads it twice: built once. */
function prepareVersion(db: Database) {
  return db
    .select({ version: vpnServers.peersVersion, retiredAt: vpnServers.retiredAt })
    .from(vpnServers)
    .where(eq(vpnServers.id, sql.placeholder('id')))
    .prepare('');
}

const versionQueries = new WeakMap<Database, ReturnType<typeof prepareVersion>>();

function versionQuery(db: Database): ReturnType<typeof prepareVersion> {
  let query = versionQueries.get(db);
  if (!query) {
    query = prepareVersion(db);
    versionQueries.set(db, query);
  }
  return query;
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
    const [row] = await versionQuery(this.ctx.db).execute({ id: serverId });
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
    const seqs = input.reports.map((report) => report.seq);
    if (seqs.some((seq, i) => i > 0 && seq <= (seqs[i - 1] ?? 0))) {
      throw new AppError('bad_request', { info: NODE_MESSAGES.outOfOrder });
    }
    const result = await retryOnDeadlock(() => countReports(this.ctx.db, node.serverId, input));
    if (result.ignored > 0) {
      this.ctx.log.warn(
        { serverId: node.serverId, ignored: result.ignored },
        'a node reported traffic of peers that are not its own',
      );
    }
    this.ctx.events.serversChanged([node.serverId], {
      statusChanged: result.status !== result.was,
    });
    // Past the limit: the person's peers leave every node (the sync blocks them).
    for (const userId of result.reachedLimit) {
      await syncVpnAccount(this.ctx, userId).catch((error: unknown) =>
        this.ctx.log.error({ err: error, userId }, 'traffic limit not applied'),
      );
    }
    return { acked_seq: result.ackedSeq };
  }
}
