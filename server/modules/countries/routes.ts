import { asc } from 'drizzle-orm';
import { countryEndpoints } from '#shared/contracts/admin/countries.ts';
import type { Database } from '../../db/client.ts';
import { countries } from '../../db/schema/index.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';

/** §7 GET /countries/get: every country in the language asked for, by that name. */
export function countryRoutes({ db }: { db: Database }): Route[] {
  return [
    route(countryEndpoints.list, async ({ query: { lang } }) => {
      const rows = await db.select().from(countries).orderBy(asc(countries.code));
      const items = rows.map((row) => ({
        id: row.id,
        code: row.code,
        name: row.names[lang] ?? row.name,
      }));
      const collator = new Intl.Collator(lang);
      return { items: items.sort((a, b) => collator.compare(a.name, b.name)) };
    }),
  ];
}
