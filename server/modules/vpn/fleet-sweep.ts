import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { OFFLINE_AFTER_MS } from '#shared/vpn/fleet-rules.ts';
import { queryRows } from '../../db/client.ts';
import { vpnServers } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { fingerprintSql, syncVpnAccount } from './vpn-access.ts';
import { vpnContext } from './vpn-context.ts';

/** People synced per sweep at most; the next sweep takes the rest. */
const ACCOUNTS_PER_SWEEP = 500;
/** A removed server's row is kept this long for its node to hear it is retired. */
const RETIRED_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * The fleet's clockwork, every few seconds in each API process (all of it safe to run twice):
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
  const changed = await queryRows<{ user_id: number }>(
    app.db,
    sql`SELECT a.user_id FROM vpn_accounts a
        WHERE a.period_end <= ${now}
           OR a.fingerprint IS DISTINCT FROM ${fingerprintSql(sql`a.user_id`, now)}
        ORDER BY a.user_id
        LIMIT ${ACCOUNTS_PER_SWEEP}`,
  );
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
