import { dashboardEndpoints as e } from '#shared/contracts/dashboard.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { accessSources } from './access-sources.ts';
import { devicesCount } from './devices-count.ts';

/** §2 /dashboard: the customer's VPN access and signed-in devices. */
export function customerDashboardRoutes(app: App): Route[] {
  return [
    route(e.view, async ({ auth }) => {
      // The billing clock, which dates the ledger's rows (the sandbox's in tests and demos).
      const now = app.payments.clock.now();
      const [access, devices] = await Promise.all([
        accessSources(app.db, auth.user.id, now),
        devicesCount(app.db, app.config, auth.user.id),
      ]);
      return { access, devices_count: devices };
    }),
  ];
}
