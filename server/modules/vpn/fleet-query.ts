import { and, asc, count, desc, eq, gt, ilike, isNull, or, type SQL, sql } from 'drizzle-orm';
import type {
  FleetCity,
  FleetCountriesQuery,
  FleetCountry,
  FleetCountryResponse,
  ServersQuery,
} from '#shared/contracts/admin/servers.ts';
import { listPage, type PagingQuery, pageWindow } from '#shared/contracts/list.ts';
import { isLang, type Lang } from '#shared/locales.ts';
import { type Database, queryRows } from '../../db/client.ts';
import { containing } from '../../db/like.ts';
import { countries, vpnCities, vpnServers } from '../../db/schema/index.ts';
import { presentServer } from './server-presenter.ts';
import { countryName, selectServers } from './server-rows.ts';

export const langOf = (lang: string | undefined): Lang | undefined =>
  isLang(lang) ? lang : undefined;

/** The sortable columns; countries by the name the page shows, in its language. */
const sorts = (lang: Lang | undefined) =>
  ({
    name: sql`lower(${vpnServers.name})`,
    country: countryName(lang),
    status: vpnServers.status,
    load: vpnServers.load,
    last_seen_at: vpnServers.lastSeenAt,
    created_at: vpnServers.createdAt,
  }) as const;

function serverFilters(query: Partial<ServersQuery>): SQL | undefined {
  const where: (SQL | undefined)[] = [];
  if (query.search) {
    const pattern = containing(query.search);
    where.push(
      or(
        ilike(vpnServers.name, pattern),
        ilike(vpnServers.endpointHost, pattern),
        ilike(vpnCities.name, pattern),
      ),
    );
  }
  if (query.country_code) where.push(eq(countries.code, query.country_code));
  if (query.status) where.push(eq(vpnServers.status, query.status));
  if (query.tag) where.push(sql`${query.tag} = ANY(${vpnServers.tags})`);
  return and(...where);
}

/** §7 GET /servers: filtered, sorted, a page at a time. */
export async function listServers(db: Database, query: ServersQuery) {
  const lang = langOf(query.lang);
  const where = serverFilters(query);
  const order = query.direction === 'asc' ? asc : desc;
  const { offset, limit } = pageWindow(query);
  const rows = await selectServers(db, lang, where)
    .orderBy(
      order(sorts(lang)[query.sort]),
      asc(sql`lower(${vpnServers.name})`),
      asc(vpnServers.id),
    )
    .offset(offset)
    .limit(limit);
  const [total] = await db
    .select({ n: count() })
    .from(vpnServers)
    .innerJoin(countries, eq(countries.id, vpnServers.countryId))
    .innerJoin(vpnCities, eq(vpnCities.id, vpnServers.cityId))
    .where(and(isNull(vpnServers.retiredAt), where));
  return listPage(rows.map(presentServer), query, total?.n ?? 0);
}

/** Per country: its live servers, those online, and its cities with servers. */
const perCountry = (db: Database) =>
  db
    .select({
      countryId: vpnServers.countryId,
      servers: sql<number>`count(*)::int`.as('servers'),
      online: sql<number>`count(*) FILTER (WHERE ${vpnServers.status} = 'online')::int`.as(
        'online',
      ),
      cities: sql<number>`count(DISTINCT ${vpnServers.cityId})::int`.as('cities'),
    })
    .from(vpnServers)
    .where(isNull(vpnServers.retiredAt))
    .groupBy(vpnServers.countryId)
    .as('fleet');

function selectCountries(db: Database, lang: Lang | undefined) {
  const fleet = perCountry(db);
  return {
    fleet,
    query: db
      .select({
        country_code: countries.code,
        name: countryName(lang),
        servers: sql<number>`coalesce(${fleet.servers}, 0)`,
        online: sql<number>`coalesce(${fleet.online}, 0)`,
        cities: sql<number>`coalesce(${fleet.cities}, 0)`,
        visible: countries.vpnVisible,
        sort: countries.vpnSort,
      })
      .from(countries)
      .leftJoin(fleet, eq(fleet.countryId, countries.id)),
  };
}

const asFleetCountry = (row: FleetCountry): FleetCountry => ({
  ...row,
  servers: Number(row.servers),
  online: Number(row.online),
  cities: Number(row.cities),
});

/** §7 GET /servers/countries: the fleet's countries (or every one), in the customers' order. */
export async function listFleetCountries(db: Database, query: FleetCountriesQuery) {
  const lang = langOf(query.lang);
  const { fleet, query: select } = selectCountries(db, lang);
  const where = and(
    query.scope === 'with_servers' ? gt(fleet.servers, 0) : undefined,
    query.search
      ? or(ilike(countryName(lang), containing(query.search)), ilike(countries.code, query.search))
      : undefined,
  );
  const rows = await select.where(where);
  const collator = new Intl.Collator(lang ?? 'en');
  const sorted = rows
    .map(asFleetCountry)
    .sort((a, b) => a.sort - b.sort || collator.compare(a.name, b.name));
  const { offset, limit } = pageWindow(query);
  return listPage(sorted.slice(offset, offset + limit), query, sorted.length);
}

export async function fleetCountryOf(
  db: Database,
  code: string,
  lang?: string,
): Promise<FleetCountry | undefined> {
  const { query } = selectCountries(db, langOf(lang));
  const [row] = await query.where(eq(countries.code, code));
  return row ? asFleetCountry(row) : undefined;
}

export async function countryOf(db: Database, countryId: number): Promise<string | undefined> {
  const [row] = await db
    .select({ code: countries.code })
    .from(countries)
    .where(eq(countries.id, countryId));
  return row?.code;
}

/** §7 GET /servers/get-cities: a country's cities, with their live servers counted. */
export async function citiesOf(db: Database, code: string): Promise<FleetCity[]> {
  const rows = await db
    .select({
      city_id: vpnCities.id,
      name: vpnCities.name,
      country_code: countries.code,
      servers: sql<number>`(SELECT count(*)::int FROM vpn_servers s
        WHERE s.city_id = ${vpnCities.id} AND s.retired_at IS NULL)`,
    })
    .from(vpnCities)
    .innerJoin(countries, eq(countries.id, vpnCities.countryId))
    .where(eq(countries.code, code))
    .orderBy(asc(vpnCities.name));
  return rows.map((row) => ({ ...row, servers: Number(row.servers) }));
}

/** §2 countries/{country_code}: the country, each of its cities with its servers. */
export async function fleetCountryPage(
  db: Database,
  code: string,
  lang?: string,
): Promise<FleetCountryResponse | undefined> {
  const country = await fleetCountryOf(db, code, lang);
  if (!country) return undefined;
  const cities = await citiesOf(db, code);
  const servers = await selectServers(db, langOf(lang), eq(countries.code, code)).orderBy(
    asc(sql`lower(${vpnServers.name})`),
  );
  return {
    country,
    cities: cities.map((city) => ({
      ...city,
      items: servers.filter((row) => row.server.cityId === city.city_id).map(presentServer),
    })),
  };
}

/** §7 GET /servers/servers-by-country: a country's servers, a page at a time. */
export function serversByCountry(db: Database, code: string, paging: PagingQuery, lang?: string) {
  return listServers(db, { ...paging, lang, country_code: code, sort: 'name', direction: 'asc' });
}

/** §2 the servers' tags in use, the most used first, for the tag filter. */
export async function tagsInUse(db: Database): Promise<{ tag: string; servers: number }[]> {
  const rows = await queryRows<{ tag: string; servers: number }>(
    db,
    sql`SELECT tag, count(*)::int AS servers
        FROM ${vpnServers}, unnest(${vpnServers.tags}) AS tag
        WHERE ${vpnServers.retiredAt} IS NULL
        GROUP BY tag ORDER BY count(*) DESC, tag`,
  );
  return rows.map((row) => ({ tag: row.tag, servers: Number(row.servers) }));
}
