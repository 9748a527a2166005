import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_BASES, type ApiArea } from '#shared/api-bases.ts';
import { profileRoutes } from '../modules/account/routes.ts';
import { appConfigRoutes } from '../modules/app-config/routes.ts';
import {
  accountUserRoutes,
  authAllRoutes,
  authPublicRoutes,
  dashboardUserRoutes,
} from '../modules/auth/routes.ts';
import { currentSubscriptionRoutes } from '../modules/billing/current-subscription-routes.ts';
import { devicesRoutes } from '../modules/devices/routes.ts';
import { oauthRoutes } from '../modules/oauth/routes.ts';
import { broadcastingRoutes } from '../modules/realtime/routes.ts';
import { twoFactorRoutes } from '../modules/two-factor/routes.ts';
import { AppError } from './app-error.ts';
import { sendError } from './error-handler.ts';

/** What every API module is registered with: the base (§7) it is mounted under. */
export interface ModuleOptions {
  area: ApiArea;
}

// The signed-in user's own account: the customer area and /admin/account answer alike.
const ownAccount = [profileRoutes, twoFactorRoutes, devicesRoutes];

// Which module's routes live under which base of §7. A module may appear under several
// bases (get-auth-user is both an account and a dashboard call).
const API_ROUTES: Record<ApiArea, FastifyPluginAsyncZod<ModuleOptions>[]> = {
  dashboard: [dashboardUserRoutes, ...ownAccount],
  account: [accountUserRoutes, currentSubscriptionRoutes, ...ownAccount],
  public: [appConfigRoutes, authPublicRoutes, oauthRoutes],
  all: [authAllRoutes, broadcastingRoutes],
};

export async function registerApi(app: FastifyInstance): Promise<void> {
  for (const [area, modules] of Object.entries(API_ROUTES) as [
    ApiArea,
    FastifyPluginAsyncZod<ModuleOptions>[],
  ][]) {
    // Each module learns its base, so one plugin can serve customers and staff alike.
    for (const routes of modules) await app.register(routes, { prefix: API_BASES[area], area });
  }
  // Unknown /api paths answer with the JSON envelope, never with the SPA.
  await app.register(
    async (api) => {
      api.setNotFoundHandler((_request, reply) => sendError(reply, new AppError('not_found')));
    },
    { prefix: '/api' },
  );
}
