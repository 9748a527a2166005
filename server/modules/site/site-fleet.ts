import { and, eq, isNull } from 'drizzle-orm';
import type { SiteFleet, SiteFleetCountry } from '#shared/contracts/site.ts';
import type { Lang } from '#shared/locales.ts';
import type { Database } from '../../db/client.ts';
import { countries, vpnCities, vpnServers } from '../../db/schema/index.ts';
import { countryName } from '../vpn/server-rows.ts';

/**
 * The fleet as visitors see it: every visible country with a server, its cities, and how
 * many of their servers are online now (not retired; maintenance, draining and silent ones
 * count as servers, not as online).
 */
export async function siteFleet(db: Database, lang: Lang): Promise<SiteFleet> {
  const rows = await db
    .select({
      code: countries.code,
      name: countryName(lang),
      sort: countries.vpnSort,
      city: vpnCities.name,
      status: vpnServers.status,
    })
    .from(vpnServers)
    .innerJoin(countries, eq(countries.id, vpnServers.countryId))
    .innerJoin(vpnCities, eq(vpnCities.id, vpnServers.cityId))
    .where(and(isNull(vpnServers.retiredAt), eq(countries.vpnVisible, true)));
  const collator = new Intl.Collator(lang);
  const byCode = new Map<string, SiteFleetCountry & { sort: number }>();
  for (const row of rows) {
    const country = byCode.get(row.code) ?? {
      code: row.code,
      name: row.name,
      sort: row.sort,
      servers: 0,
      online: 0,
      cities: [],
    };
    const online = row.status === 'online' ? 1 : 0;
    country.servers += 1;
    country.online += online;
    const city = country.cities.find((entry) => entry.name === row.city);
    if (city) {
      city.servers += 1;
      city.online += online;
    } else country.cities.push({ name: row.city, servers: 1, online });
    byCode.set(row.code, country);
  }
  const list = [...byCode.values()]
    .sort((a, b) => a.sort - b.sort || collator.compare(a.name, b.name))
    .map(({ sort: _sort, ...country }) => ({
      ...country,
      cities: country.cities.sort((a, b) => collator.compare(a.name, b.name)),
    }));
  return {
    countries: list,
    servers: list.reduce((sum, country) => sum + country.servers, 0),
    online: list.reduce((sum, country) => sum + country.online, 0),
  };
}
