import { eq, inArray } from 'drizzle-orm';
import type { LocationsResponse } from '#shared/contracts/vpn.ts';
import type { Lang } from '#shared/locales.ts';
import { FASTEST } from '#shared/vpn/fleet-rules.ts';
import type { Database } from '../../db/client.ts';
import { countries, vpnCities, vpnServers } from '../../db/schema/index.ts';
import { candidates, choose } from './placement.ts';
import { countryName } from './server-rows.ts';

/**
 * The customer's location picker: each visible country with a server taking devices, in
 * staff's order, with its cities and its lightest load; and where `fastest` would go now.
 */
export async function locations(
  db: Database,
  lang: Lang | undefined,
  near: string | null,
): Promise<LocationsResponse> {
  const list = await candidates(db);
  const codes = [...new Set(list.map((c) => c.countryCode))];
  if (codes.length === 0) return { items: [], fastest: null };
  const [named, cities] = await Promise.all([
    db
      .select({ code: countries.code, name: countryName(lang), sort: countries.vpnSort })
      .from(countries)
      .where(inArray(countries.code, codes)),
    db
      .select({ serverId: vpnServers.id, city: vpnCities.name })
      .from(vpnServers)
      .innerJoin(vpnCities, eq(vpnCities.id, vpnServers.cityId))
      .where(
        inArray(
          vpnServers.id,
          list.map((c) => c.id),
        ),
      ),
  ]);
  const cityOf = new Map(cities.map((row) => [row.serverId, row.city]));
  const collator = new Intl.Collator(lang ?? 'en');
  const items = named
    .sort((a, b) => a.sort - b.sort || collator.compare(a.name, b.name))
    .map((country) => {
      const here = list.filter((c) => c.countryCode === country.code);
      return {
        country_code: country.code,
        name: country.name,
        cities: [...new Set(here.map((c) => cityOf.get(c.id) ?? ''))].filter(Boolean).sort(),
        servers: here.length,
        load: Math.min(...here.map((c) => c.load)),
      };
    });
  const fastest = choose(list, FASTEST, near);
  const fastestCountry = fastest && items.find((i) => i.country_code === fastest.countryCode);
  return {
    items,
    fastest: fastestCountry
      ? { country_code: fastestCountry.country_code, name: fastestCountry.name }
      : null,
  };
}
