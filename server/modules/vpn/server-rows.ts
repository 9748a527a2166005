import { and, count, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Lang } from '#shared/locales.ts';
import type { Database } from '../../db/client.ts';
import { countries, vpnCities, vpnDevices, vpnServers } from '../../db/schema/index.ts';
import type { ServerWithPlace } from './server-presenter.ts';

/** Devices placed on each server, counted in one subquery. */
export const devicesPerServer = (db: Database) =>
  db
    .select({ serverId: vpnDevices.serverId, devices: count().as('devices') })
    .from(vpnDevices)
    .groupBy(vpnDevices.serverId)
    .as('placed');

/** A country's name in the language asked for, English when it has none. */
export function countryName(lang: Lang | undefined): SQL<string> {
  if (!lang || lang === 'en') return sql<string>`${countries.name}`;
  return sql<string>`coalesce(${countries.names} ->> ${lang}, ${countries.name})`;
}

/** Live (not removed) servers with their place and device count, filtered by `where`. */
export function selectServers(db: Database, lang?: Lang, where?: SQL) {
  const placed = devicesPerServer(db);
  return db
    .select({
      server: vpnServers,
      countryCode: countries.code,
      countryName: countryName(lang),
      city: vpnCities.name,
      devices: sql<number>`coalesce(${placed.devices}, 0)::int`,
    })
    .from(vpnServers)
    .innerJoin(countries, eq(countries.id, vpnServers.countryId))
    .innerJoin(vpnCities, eq(vpnCities.id, vpnServers.cityId))
    .leftJoin(placed, eq(placed.serverId, vpnServers.id))
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
