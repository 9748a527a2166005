import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { DeviceBlock } from '#shared/contracts/vpn.ts';
import { BYTES_PER_GB, DEFAULT_DEVICE_LIMIT } from '#shared/vpn/fleet-rules.ts';
import { type Period, usagePeriod } from '#shared/vpn/usage-period.ts';
import { type Database, queryRows } from '../../db/client.ts';
import { retryOnDeadlock } from '../../db/errors.ts';
import {
  users,
  type VpnAccountRow,
  vpnAccounts,
  vpnDevices,
  vpnServers,
  vpnUsagePeriods,
} from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { deviceBlocks } from './device-blocks.ts';
import type { VpnContext } from './vpn-context.ts';

// The one home of "may this person's devices be on their servers now" (DESIGN: the ledger is
// the one answer to access; this applies it to the peers). Everything it reads is summed up in
// a fingerprint, computed by SQL alone, so the sweep can find in one query every person whose
// ledger rows, account standing or traffic limit changed, however the change came about.

/** The ledger's rows live at `now` for user `userId` (SQL), with their subscription's plan. */
function liveRows(userId: SQL, now: Date) {
  return sql`
    FROM entitlements e
    LEFT JOIN subscriptions s
      ON e.source IN ('subscription', 'bonus')
     AND e.source_ref ~ '^subscription:[0-9]{1,9}$'
     AND s.id = CASE WHEN e.source_ref ~ '^subscription:[0-9]{1,9}$'
                     THEN split_part(e.source_ref, ':', 2)::int END
    LEFT JOIN products p ON p.id = s.product_id
    WHERE e.user_id = ${userId}
      AND e.revoked_at IS NULL
      AND e.starts_at <= ${now}
      AND (e.ends_at IS NULL OR e.ends_at > ${now})`;
}

/** Everything the standing depends on, as one text (for `userId`, an SQL expression). */
export function fingerprintSql(userId: SQL, now: Date) {
  return sql<string>`concat_ws('|',
    coalesce((SELECT string_agg(concat_ws(':', e.id, extract(epoch FROM e.ends_at),
        s.product_id, p.device_limit, extract(epoch FROM s.current_period_end)), ',' ORDER BY e.id)
      ${liveRows(userId, now)}), ''),
    (SELECT concat_ws(':', u.blocked_at IS NOT NULL, u.delete_at IS NOT NULL, u.traffic_limit_gb)
       FROM users u WHERE u.id = ${userId}))`;
}

interface LiveRow {
  source: string;
  ends_at: Date | string | null;
  device_limit: number | null;
  period_start: Date | string | null;
  period_end: Date | string | null;
}

export interface AccountState {
  fingerprint: string;
  access: boolean;
  /** The latest end of the live rows; null while one has none (or there are none). */
  accessUntil: Date | null;
  blocked: boolean;
  deviceLimit: number;
  limitBytes: number | null;
  /** The own subscription's current period, which the traffic count follows. */
  subscriptionPeriod: Period | null;
}

const asDate = (value: Date | string | null) => (value === null ? null : new Date(value));

/** A person's VPN standing at `now`, read from the ledger, the account and staff's limit. */
export async function accountState(db: Database, userId: number, now: Date): Promise<AccountState> {
  const id = sql`${userId}::int`;
  // One after the other: `db` may be a transaction, which runs one query at a time.
  const rows = await queryRows<LiveRow>(
    db,
    sql`SELECT e.source, e.ends_at, p.device_limit,
          s.current_period_start AS period_start, s.current_period_end AS period_end
        ${liveRows(id, now)}`,
  );
  const [person] = await queryRows<{
    fingerprint: string;
    blocked: boolean;
    deactivated: boolean;
    traffic_limit_gb: number | null;
  }>(
    db,
    sql`SELECT ${fingerprintSql(id, now)} AS fingerprint,
          u.blocked_at IS NOT NULL AS blocked, u.delete_at IS NOT NULL AS deactivated,
          u.traffic_limit_gb
        FROM users u WHERE u.id = ${id}`,
  );
  // Staff may name anyone, and someone deleted meanwhile is nobody.
  if (!person) throw new AppError('not_found');
  const ends = rows.map((row) => asDate(row.ends_at));
  const own = rows
    .filter((row) => row.source === 'subscription' && row.period_start && row.period_end)
    .map((row) => ({
      start: asDate(row.period_start) as Date,
      end: asDate(row.period_end) as Date,
    }))
    .sort((a, b) => b.end.getTime() - a.end.getTime())[0];
  return {
    fingerprint: person.fingerprint,
    // A deactivated account keeps its ledger rows (it may come back), but not its access.
    access: rows.length > 0 && !person.deactivated,
    accessUntil:
      ends.length === 0 || ends.includes(null)
        ? null
        : new Date(Math.max(...ends.map((end) => (end as Date).getTime()))),
    blocked: person.blocked,
    deviceLimit:
      Math.max(
        0,
        ...rows.map((row) =>
          row.source === 'family'
            ? DEFAULT_DEVICE_LIMIT
            : (row.device_limit ?? DEFAULT_DEVICE_LIMIT),
        ),
      ) || DEFAULT_DEVICE_LIMIT,
    limitBytes:
      person.traffic_limit_gb === null ? null : Number(person.traffic_limit_gb) * BYTES_PER_GB,
    subscriptionPeriod: own ?? null,
  };
}

/** One more version for each server: its long polls answer with the new set of peers. */
export async function bumpPeers(tx: Database, serverIds: Iterable<number>): Promise<number[]> {
  const ids = [...new Set(serverIds)].sort((a, b) => a - b);
  if (ids.length > 0) {
    await tx
      .update(vpnServers)
      .set({ peersVersion: sql`${vpnServers.peersVersion} + 1` })
      .where(inArray(vpnServers.id, ids));
  }
  return ids;
}

export interface SyncResult {
  account: VpnAccountRow;
  state: AccountState;
  /** Servers whose set of peers changed (their versions were bumped). */
  changedServers: number[];
  /** Devices whose block changed. */
  changedDevices: number;
  devices: number;
}

const EPOCH = new Date(0);

/**
 * Makes the person's devices match their standing, inside `tx`: the account row is locked
 * (so two changes for one person take turns), the traffic period rolled over when it has
 * ended, each device's block worked out, and the servers whose peers changed bumped.
 */
export async function syncAccountIn(tx: Database, userId: number, now: Date): Promise<SyncResult> {
  // Staff may name anyone, and someone deleted meanwhile is nobody.
  const [person] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!person) throw new AppError('not_found');
  // A new account's period is worked out below, as for one whose period has ended.
  await tx
    .insert(vpnAccounts)
    .values({ userId, deviceLimit: DEFAULT_DEVICE_LIMIT, periodStart: EPOCH, periodEnd: EPOCH })
    .onConflictDoNothing();
  const [locked] = await tx
    .select()
    .from(vpnAccounts)
    .where(eq(vpnAccounts.userId, userId))
    .for('update');
  if (!locked) throw new Error(`no VPN account for user ${userId}`);
  const state = await accountState(tx, userId, now);

  let period = { start: locked.periodStart, end: locked.periodEnd };
  let used = { rx: locked.periodRx, tx: locked.periodTx };
  if (now >= locked.periodEnd) {
    if (used.rx + used.tx > 0) {
      await tx
        .insert(vpnUsagePeriods)
        .values({ userId, periodStart: period.start, periodEnd: period.end, ...used })
        .onConflictDoNothing();
    }
    period = usagePeriod(now, state.subscriptionPeriod);
    used = { rx: 0, tx: 0 };
  }
  const limitReached = state.limitBytes !== null && used.rx + used.tx >= state.limitBytes;

  const devices = await tx
    .select({ id: vpnDevices.id, serverId: vpnDevices.serverId, blockedBy: vpnDevices.blockedBy })
    .from(vpnDevices)
    .where(eq(vpnDevices.userId, userId))
    .orderBy(asc(vpnDevices.createdAt), asc(vpnDevices.id));
  const blocks = deviceBlocks(devices, {
    blocked: state.blocked,
    access: state.access,
    limitReached,
    deviceLimit: state.deviceLimit,
  });
  const changed = new Map<DeviceBlock | null, number[]>();
  const servers = new Set<number>();
  devices.forEach((device, index) => {
    const block = blocks[index] ?? null;
    if (block === device.blockedBy) return;
    changed.set(block, [...(changed.get(block) ?? []), device.id]);
    const wasOn = device.blockedBy === null;
    if (device.serverId !== null && wasOn !== (block === null)) servers.add(device.serverId);
  });
  for (const [block, ids] of changed) {
    await tx
      .update(vpnDevices)
      .set({ blockedBy: block })
      .where(and(eq(vpnDevices.userId, userId), inArray(vpnDevices.id, ids)));
  }
  const changedServers = await bumpPeers(tx, servers);

  const [account] = await tx
    .update(vpnAccounts)
    .set({
      fingerprint: state.fingerprint,
      accessActive: state.access,
      accessUntil: state.accessUntil,
      blocked: state.blocked,
      deviceLimit: state.deviceLimit,
      limitBytes: state.limitBytes,
      periodStart: period.start,
      periodEnd: period.end,
      periodRx: used.rx,
      periodTx: used.tx,
      limitReachedAt: limitReached ? (locked.limitReachedAt ?? now) : null,
    })
    .where(eq(vpnAccounts.userId, userId))
    .returning();
  if (!account) throw new Error(`no VPN account for user ${userId}`);
  return {
    account,
    state,
    changedServers,
    changedDevices: [...changed.values()].reduce((sum, ids) => sum + ids.length, 0),
    devices: devices.length,
  };
}

/** What follows a committed sync: the nodes are woken, open screens told. */
export function afterSync(ctx: VpnContext, userId: number, result: SyncResult): void {
  ctx.signal.notify(result.changedServers);
  if (result.changedServers.length > 0) ctx.events.serversChanged(result.changedServers);
  if (result.changedDevices > 0) void ctx.events.userDevicesChanged(userId, result.devices);
}

export async function hasVpnAccount(db: Database, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: vpnAccounts.userId })
    .from(vpnAccounts)
    .where(eq(vpnAccounts.userId, userId));
  return row !== undefined;
}

/** Syncs one person in a transaction of its own, then wakes and tells. */
export async function syncVpnAccount(ctx: VpnContext, userId: number): Promise<SyncResult> {
  const result = await retryOnDeadlock(() =>
    ctx.db.transaction((tx) => syncAccountIn(tx, userId, ctx.now())),
  );
  afterSync(ctx, userId, result);
  return result;
}
