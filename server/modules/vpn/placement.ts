import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { lastHost, parsePool } from '#shared/vpn/addresses.ts';
import { FASTEST } from '#shared/vpn/fleet-rules.ts';
import { type Database, queryRows } from '../../db/client.ts';
import { COUNTRY_CENTRES } from '../../db/reference/country-centres.ts';
import { countries, type VpnServerRow, vpnDevices, vpnServers } from '../../db/schema/index.ts';

/** A server that takes new devices: online (not in maintenance, draining or silent), room left. */
export interface Candidate {
  id: number;
  countryCode: string;
  load: number;
  devices: number;
  capacity: number;
}

/** Every server taking devices now, in countries customers may pick. */
export async function candidates(db: Database, where?: SQL): Promise<Candidate[]> {
  const rows = await db
    .select({
      id: vpnServers.id,
      countryCode: countries.code,
      load: vpnServers.load,
      capacity: vpnServers.capacity,
      devices: sql<number>`(SELECT count(*)::int FROM vpn_devices d WHERE d.server_id = ${vpnServers.id})`,
    })
    .from(vpnServers)
    .innerJoin(countries, eq(countries.id, vpnServers.countryId))
    .where(
      and(
        eq(vpnServers.status, 'online'),
        isNull(vpnServers.retiredAt),
        eq(countries.vpnVisible, true),
        where,
      ),
    );
  return rows.filter((row) => row.devices < row.capacity);
}

/** The lightest: lowest load, then the most room. */
export function lightest(list: readonly Candidate[]): Candidate | undefined {
  return [...list].sort(
    (a, b) => a.load - b.load || a.devices / a.capacity - b.devices / b.capacity || a.id - b.id,
  )[0];
}

const RADIANS = Math.PI / 180;

/** Great-circle distance between two countries' centres, in km; unknown ones are far. */
export function distanceKm(from: string, to: string): number {
  const a = COUNTRY_CENTRES[from];
  const b = COUNTRY_CENTRES[to];
  if (!a || !b) return Number.POSITIVE_INFINITY;
  const [lat1, lon1] = [a[0] * RADIANS, a[1] * RADIANS];
  const [lat2, lon2] = [b[0] * RADIANS, b[1] * RADIANS];
  const h =
    Math.sin((lat2 - lat1) / 2) ** 2 +
    Math.cos(lat1) * Math.cos(lat2) * Math.sin((lon2 - lon1) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Where a device goes: for a country, its lightest server; for `fastest`, the lightest server
 * of the country nearest the customer (their own when it has one), or of the whole fleet when
 * where they are is unknown. Undefined when nothing takes devices there.
 */
export function choose(
  list: readonly Candidate[],
  location: string,
  near: string | null,
): Candidate | undefined {
  if (location !== FASTEST) return lightest(list.filter((c) => c.countryCode === location));
  if (!near) return lightest(list);
  const nearest = [...new Set(list.map((c) => c.countryCode))].sort(
    (a, b) => distanceKm(near, a) - distanceKm(near, b) || a.localeCompare(b),
  )[0];
  return lightest(list.filter((c) => c.countryCode === nearest));
}

/**
 * The lowest free host number of the server's pools (1 is the server's own), found by the
 * database in one query; undefined when the pools are full. The caller holds the server's
 * row lock, so two devices cannot take the same number.
 */
export async function freeHost(
  db: Database,
  server: Pick<VpnServerRow, 'id' | 'ipv4Pool' | 'ipv6Pool'>,
): Promise<number | undefined> {
  const v4 = parsePool(server.ipv4Pool, 4);
  const v6 = parsePool(server.ipv6Pool, 6);
  if (!v4 || !v6) return undefined;
  // n devices hold at most n of the numbers 2 … n + 2: a free one is among them, if any.
  const [placed] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM ${vpnDevices} d WHERE d.server_id = ${server.id}`,
  );
  const last = Math.min(lastHost(v4), lastHost(v6), Number(placed?.n ?? 0) + 2);
  const [row] = await queryRows<{ host: number }>(
    db,
    sql`SELECT h AS host FROM generate_series(2, ${last}::int) AS h
        WHERE NOT EXISTS (
          SELECT 1 FROM ${vpnDevices} d WHERE d.server_id = ${server.id} AND d.host = h)
        LIMIT 1`,
  );
  return row ? Number(row.host) : undefined;
}
