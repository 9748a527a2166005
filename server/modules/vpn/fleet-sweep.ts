import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { OFFLINE_AFTER_MS } from '#shared/vpn/fleet-rules.ts';
import { queryRows } from '../../db/client.ts';
import { vpnServers } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { fingerprintSql, syncVpnAccount } from './vpn-access.ts';
import { vpnContext } from './vpn-context.ts';

/** People synced per sweep at most; the next sweep takes the rest. */
const ACCOUNTS_PER_SWEEP = 500;
/**
 * Every account's fingerprint is compared this often; in between, only those of people
 * something happened to since the last sweep (a safety margin back), found by indexes. At a
 * fleet's size the full comparison takes seconds of the database's time, the other
 * milliseconds.
 */
const FULL_CHECK_EVERY_MS = 5 * 60_000;
const MARGIN_MS = 60_000;

interface SweepMark {
  /** When the last full comparison started (wall clock). */
  fullAt: number;
  /** When the last sweep started: the wall clock, and billing's (the ledger's dates). */
  wall: Date;
  billing: Date;
}

const marks = new WeakMap<App, SweepMark>();

/**
 * The accounts to sync: every one whose period ended or whose fingerprint differs, either
 * among all (a full comparison) or among the people whose ledger rows, account or plan
 * changed, or whose rows started or ended, since the last sweep.
 */
function changedAccounts(app: App, now: Date) {
  const wall = new Date();
  const mark = marks.get(app);
  const full = !mark || wall.getTime() - mark.fullAt >= FULL_CHECK_EVERY_MS;
  const next = { fullAt: full ? wall.getTime() : (mark?.fullAt ?? 0), wall, billing: now };
  return { query: changedAccountsQuery(now, full ? undefined : mark), next };
}

function changedAccountsQuery(now: Date, mark: SweepMark | undefined) {
  const differs = sql`a.fingerprint IS DISTINCT FROM ${fingerprintSql(sql`a.user_id`, now)}`;
  if (!mark) {
    return sql`SELECT a.user_id FROM vpn_accounts a
      WHERE a.period_end <= ${now} OR ${differs}
      ORDER BY a.user_id LIMIT ${ACCOUNTS_PER_SWEEP}`;
  }
  const since = new Date(mark.wall.getTime() - MARGIN_MS);
  const billingSince = new Date(mark.billing.getTime() - MARGIN_MS);
  return sql`SELECT a.user_id FROM vpn_accounts a
    WHERE a.period_end <= ${now}
       OR (a.user_id IN (
             SELECT user_id FROM entitlements WHERE updated_at > ${since}
             UNION SELECT user_id FROM entitlements
               WHERE starts_at > ${billingSince} AND starts_at <= ${now}
             UNION SELECT user_id FROM entitlements
               WHERE ends_at > ${billingSince} AND ends_at <= ${now}
             UNION SELECT id FROM users WHERE updated_at > ${since}
             UNION SELECT user_id FROM subscriptions WHERE updated_at > ${since}
             UNION SELECT s.user_id FROM subscriptions s
               JOIN products p ON p.id = s.product_id WHERE p.updated_at > ${since})
           AND ${differs})
    ORDER BY a.user_id LIMIT ${ACCOUNTS_PER_SWEEP}`;
}
/** A removed server's row is kept this long for its node to hear it is retired. */
const RETIRED_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * The fleet's clockwork, every 10 s in each API process (all of it safe to run twice):
 * servers silent for a minute go offline; people whose standing changed with time or
 * elsewhere (an entitlement ending or starting, a refund, a block, staff's traffic limit, a
 * billing period ending) are synced, so their peers leave or rejoin their nodes well within
 * a minute; removed servers are forgotten after a day.
 */
export async function fleetSweep(app: App): Promise<{ offline: number; synced: number }> {
  const ctx = vpnContext(app);
  const silentSince = new Date(Date.now() - OFFLINE_AFTER_MS);
  const offline = await app.db
    .update(vpnServers)
    .set({ status: 'offline' })
    .where(
      and(
        eq(vpnServers.status, 'online'),
        isNull(vpnServers.retiredAt),
        or(isNull(vpnServers.lastSeenAt), lt(vpnServers.lastSeenAt, silentSince)),
      ),
    )
    .returning({ id: vpnServers.id });
  if (offline.length > 0) {
    ctx.events.serversChanged(
      offline.map((row) => row.id),
      { statusChanged: true },
    );
  }

  const now = ctx.now();
  const { query, next } = changedAccounts(app, now);
  const changed = await queryRows<{ user_id: number }>(app.db, query);
  // A full batch may have left people out: the next sweep looks from the same mark again
  // (and compares everyone again if this one did), so none waits for the 5-minute check.
  if (changed.length < ACCOUNTS_PER_SWEEP) marks.set(app, next);
  for (const { user_id: userId } of changed) {
    await syncVpnAccount(ctx, Number(userId)).catch((error: unknown) =>
      app.log.error({ err: error, userId }, 'VPN access not synced'),
    );
  }

  await app.db
    .delete(vpnServers)
    .where(lt(vpnServers.retiredAt, new Date(Date.now() - RETIRED_KEPT_MS)));
  return { offline: offline.length, synced: changed.length };
}
