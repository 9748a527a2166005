import { oauthClientEndpoints as e } from '#shared/contracts/admin/oauth-clients.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { AdminClientsService } from './admin-clients-service.ts';

/** §2 /admin/oauth/server: staff's OAuth clients, admin only (shared/contracts). */
export function adminOAuthClientRoutes(app: App): Route[] {
  const clients = new AdminClientsService(app);
  return [
    route(e.list, ({ query }) => clients.list(query)),
    route(e.view, async ({ query }) => ({ client: await clients.view(query.client_id) })),
    route(e.create, ({ request, auth, body }) =>
      clients.create({ request, actorId: auth.user.id }, body),
    ),
    route(e.update, async ({ request, auth, body }) => ({
      client: await clients.update({ request, actorId: auth.user.id }, body),
    })),
    route(e.rotateSecret, ({ request, auth, body }) =>
      clients.rotateSecret({ request, actorId: auth.user.id }, body.client_id),
    ),
    route(e.revokeSecret, async ({ request, auth, body }) => ({
      client: await clients.revokeSecret({ request, actorId: auth.user.id }, body.client_id),
    })),
    route(e.disable, async ({ request, auth, body }) => ({
      client: await clients.disable({ request, actorId: auth.user.id }, body.client_id),
    })),
    route(e.enable, async ({ request, auth, body }) => ({
      client: await clients.enable({ request, actorId: auth.user.id }, body.client_id),
    })),
  ];
}
