import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Lang } from '#shared/locales.ts';
import type { Database } from '../../db/client.ts';
import { countries, vpnCities, vpnDevices, vpnServers } from '../../db/schema/index.ts';
import type { ServerWithPlace } from './server-presenter.ts';

/**
 * Devices placed on a server, counted for each row by the (server_id, host) index: a page of
 * servers, or the few a live event names, never counts the whole fleet's devices.
 */
const devicesOnServer = sql<number>`(SELECT count(*)::int FROM ${vpnDevices}
  WHERE ${vpnDevices.serverId} = ${vpnServers.id})`;

/** A country's name in the language asked for, English when it has none. */
export function countryName(lang: Lang | undefined): SQL<string> {
  if (!lang || lang === 'en') return sql<string>`${countries.name}`;
  return sql<string>`coalesce(${countries.names} ->> ${lang}, ${countries.name})`;
}

/** Live (not removed) servers with their place and device count, filtered by `where`. */
export function selectServers(db: Database, lang?: Lang, where?: SQL) {
  return db
    .select({
      server: vpnServers,
      countryCode: countries.code,
      countryName: countryName(lang),
      city: vpnCities.name,
      devices: devicesOnServer,
    })
    .from(vpnServers)
    .innerJoin(countries, eq(countries.id, vpnServers.countryId))
    .innerJoin(vpnCities, eq(vpnCities.id, vpnServers.cityId))
    .where(and(isNull(vpnServers.retiredAt), where));
}

export async function serversByIds(
  db: Database,
  ids: readonly number[],
  lang?: Lang,
): Promise<ServerWithPlace[]> {
  if (ids.length === 0) return [];
  return selectServers(db, lang, inArray(vpnServers.id, [...ids]));
}

export async function serverById(
  db: Database,
  id: number,
  lang?: Lang,
): Promise<ServerWithPlace | undefined> {
  const [row] = await serversByIds(db, [id], lang);
  return row;
}

/** What the staff channel says of servers, and nothing more: read every second at fleet size. */
export function serverStates(db: Database, ids: readonly number[]) {
  return db
    .select({
      server_id: vpnServers.id,
      status: vpnServers.status,
      load: vpnServers.load,
      devices: devicesOnServer,
      active_peers: vpnServers.activePeers,
      lastSeenAt: vpnServers.lastSeenAt,
    })
    .from(vpnServers)
    .where(and(isNull(vpnServers.retiredAt), inArray(vpnServers.id, [...ids])));
}
