import { statisticsEndpoints as e } from '#shared/contracts/admin/statistics.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { mrr } from './mrr-query.ts';
import { subscriptionStats } from './subscriptions-query.ts';
import { earnings, takingsByCountry } from './takings-query.ts';

/**
 * §2 /admin/statistics, §7 /invoices/stat-by-country: admin only, while billing is on. Read
 * from rollups the database keeps (migration 0013_statistics), so any range answers fast.
 * "Now" is billing's time, the one periods end by.
 */
export function statisticsRoutes(app: App): Route[] {
  const now = () => app.payments.clock.now();
  return [
    route(e.earnings, ({ query }) => earnings(app.db, query)),
    route(e.byCountry, ({ query }) => takingsByCountry(app.db, query)),
    route(e.mrr, ({ query }) => mrr(app.db, query, now())),
    route(e.subscriptions, ({ query }) => subscriptionStats(app.db, query, now())),
  ];
}
