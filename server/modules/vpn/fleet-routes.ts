import { serverEndpoints as e } from '#shared/contracts/admin/servers.ts';
import { AppError } from '../../http/app-error.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import {
  citiesOf,
  fleetCountryPage,
  langOf,
  listFleetCountries,
  listServers,
  serversByCountry,
  tagsInUse,
} from './fleet-query.ts';
import { FleetService } from './fleet-service.ts';
import { vpnContext } from './vpn-context.ts';

/** §2 /admin/servers, §7 dashboard /servers: admin only. */
export function fleetRoutes(app: App): Route[] {
  const fleet = new FleetService(vpnContext(app));
  return [
    route(e.list, ({ query }) => listServers(app.db, query)),
    route(e.tags, async () => ({ items: await tagsInUse(app.db) })),
    route(e.cities, async ({ query }) => ({ items: await citiesOf(app.db, query.country_code) })),
    route(e.countries, ({ query }) => listFleetCountries(app.db, query)),
    route(e.country, async ({ query }) => {
      const page = await fleetCountryPage(app.db, query.country_code, query.lang);
      if (!page) throw new AppError('not_found');
      return page;
    }),
    route(e.byCountry, ({ query }) =>
      serversByCountry(app.db, query.country_code, query, query.lang),
    ),
    route(e.view, async ({ query }) => ({
      server: await fleet.view(query.server_id, langOf(query.lang)),
    })),
    route(e.create, ({ request, auth, body }) => fleet.create({ request, actor: auth }, body)),
    route(e.update, async ({ request, auth, body }) => ({
      server: await fleet.update({ request, actor: auth }, body),
    })),
    route(e.maintenance, async ({ request, auth, body }) => ({
      server: await fleet.maintenance({ request, actor: auth }, body.server_id, body.maintenance),
    })),
    route(e.rotateToken, ({ request, auth, body }) =>
      fleet.rotateToken({ request, actor: auth }, body.server_id),
    ),
    route(e.delete, async ({ request, auth, body }) => ({
      success: true as const,
      ...(await fleet.delete({ request, actor: auth }, body.server_id)),
    })),
    route(e.updateCountry, async ({ request, auth, body }) => ({
      country: await fleet.updateCountry({ request, actor: auth }, body, body.lang),
    })),
  ];
}
