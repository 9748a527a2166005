import { dashboardEndpoints as e } from '#shared/contracts/admin/dashboard.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { dashboardSummary } from './dashboard-summary.ts';

/** §2 /admin/dashboard: the counts the admin lands on (admin only, billing flag on). */
export function adminDashboardRoutes(app: App): Route[] {
  return [route(e.summary, () => dashboardSummary(app.db))];
}
