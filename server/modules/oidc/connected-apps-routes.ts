import { connectedAppsEndpoints as e } from '#shared/contracts/connected-apps.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { connectedApps, revokeConnectedApps } from './connected-apps.ts';

const SUCCESS = { success: true } as const;

/** The security page's connected apps (shared/contracts/connected-apps.ts). */
export function connectedAppsRoutes(app: App): Route[] {
  const revoke = async (
    request: Parameters<typeof revokeConnectedApps>[1],
    userId: number,
    grantId?: string,
  ) => {
    const grantIds = await revokeConnectedApps(app.db, request, userId, grantId);
    await app.oidc.grantsRevoked({ request, userId, grantIds });
    return SUCCESS;
  };
  return [
    route(e.list, async ({ auth }) => ({ items: await connectedApps(app.db, auth.user.id) })),
    route(e.revoke, ({ request, body, auth }) => revoke(request, auth.user.id, body.grant_id)),
    route(e.revokeAll, ({ request, auth }) => revoke(request, auth.user.id)),
  ];
}
