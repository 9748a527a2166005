import type { FastifyInstance } from 'fastify';
import { profileRoutes } from '../modules/account/routes.ts';
import { adminDashboardRoutes } from '../modules/admin-dashboard/routes.ts';
import { appConfigRoutes } from '../modules/app-config/routes.ts';
import { auditLogRoutes } from '../modules/audit/routes.ts';
import { appStoreRoutes } from '../modules/billing/app-store-routes.ts';
import { currentSubscriptionRoutes } from '../modules/billing/current-subscription-routes.ts';
import { gatewaySettingsRoutes } from '../modules/billing/gateway-settings-routes.ts';
import { billingRoutes } from '../modules/billing/routes.ts';
import { contentRoutes } from '../modules/content/routes.ts';
import { countryRoutes } from '../modules/countries/routes.ts';
import { couponRoutes } from '../modules/coupons/routes.ts';
import { customerDashboardRoutes } from '../modules/customer-dashboard/routes.ts';
import { customerRoutes } from '../modules/customers/routes.ts';
import { dataExportRoutes } from '../modules/data-export/routes.ts';
import { devicesRoutes } from '../modules/devices/routes.ts';
import { familySharingRoutes } from '../modules/family-sharing/routes.ts';
import { helpSearchRoutes } from '../modules/help-search/routes.ts';
import { identityRoutes } from '../modules/identity/routes.ts';
import { twoFactorRoutes } from '../modules/identity/two-factor/routes.ts';
import { notificationRoutes } from '../modules/notifications/routes.ts';
import { adminOAuthProviderRoutes } from '../modules/oauth/admin-provider-routes.ts';
import { oauthRoutes } from '../modules/oauth/routes.ts';
import { adminOAuthClientRoutes } from '../modules/oidc/admin-clients-routes.ts';
import { connectedAppsRoutes } from '../modules/oidc/connected-apps-routes.ts';
import { oidcInteractionRoutes } from '../modules/oidc/interaction-routes.ts';
import { passkeyRoutes } from '../modules/passkeys/routes.ts';
import { productRoutes } from '../modules/products/routes.ts';
import { broadcastingRoutes } from '../modules/realtime/routes.ts';
import { referralRoutes } from '../modules/referral/routes.ts';
import { salesRoutes } from '../modules/sales/routes.ts';
import { siteRoutes } from '../modules/site/routes.ts';
import { seoFilesRoutes } from '../modules/site/seo-files/routes.ts';
import { statisticsRoutes } from '../modules/statistics/routes.ts';
import { deviceRoutes } from '../modules/vpn/device-routes.ts';
import { deviceSignInRoutes } from '../modules/vpn/device-sign-in-routes.ts';
import { fleetRoutes } from '../modules/vpn/fleet-routes.ts';
import { nodeRoutes } from '../modules/vpn/node-routes.ts';
import { AppError } from './app-error.ts';
import { type Route, registerRoutes } from './endpoint-routes.ts';
import { sendError } from './error-handler.ts';
import { publicRoutes } from './route-access.ts';
import type { App } from './types.ts';

/**
 * Every module's routes. Each route is mounted under the base its declaration names
 * (shared/contracts), so a module lists what it serves, never where.
 */
const MODULES: readonly ((app: App) => Route[])[] = [
  appConfigRoutes,
  identityRoutes,
  twoFactorRoutes,
  profileRoutes,
  dataExportRoutes,
  devicesRoutes,
  passkeyRoutes,
  oauthRoutes,
  oidcInteractionRoutes,
  adminOAuthClientRoutes,
  adminOAuthProviderRoutes,
  connectedAppsRoutes,
  broadcastingRoutes,
  currentSubscriptionRoutes,
  billingRoutes,
  appStoreRoutes,
  gatewaySettingsRoutes,
  countryRoutes,
  customerRoutes,
  auditLogRoutes,
  productRoutes,
  couponRoutes,
  adminDashboardRoutes,
  salesRoutes,
  statisticsRoutes,
  notificationRoutes,
  familySharingRoutes,
  referralRoutes,
  customerDashboardRoutes,
  fleetRoutes,
  deviceRoutes,
  deviceSignInRoutes,
  nodeRoutes,
  contentRoutes,
  helpSearchRoutes,
  siteRoutes,
];

export async function registerApi(app: App): Promise<void> {
  const features = app.config.features;
  for (const routes of MODULES) await registerRoutes(app, routes(app), features);
  await app.register(seoFilesRoutes);
  // Unknown /api paths answer with the JSON envelope, never with the SPA.
  await app.register(
    async (api: FastifyInstance) => {
      publicRoutes(api);
      api.setNotFoundHandler((_request, reply) => sendError(reply, new AppError('not_found')));
    },
    { prefix: '/api' },
  );
}
