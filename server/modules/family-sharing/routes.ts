import { familySharingEndpoints } from '#shared/contracts/family-sharing.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { FamilySharingService } from './family-service.ts';

/** §7 family sharing: each call answers the caller's group as they see it after the change. */
export function familySharingRoutes(app: App): Route[] {
  const family = new FamilySharingService(app);
  const e = familySharingEndpoints;
  return [
    route(e.view, ({ auth }) => family.view(auth.user)),
    route(e.create, ({ request, auth }) => family.create(request, auth.user)),
    route(e.invite, ({ request, auth, body }) => family.invite(request, auth.user, body.email)),
    route(e.resend, ({ request, auth, body }) => family.resend(request, auth.user, body.user_id)),
    route(e.remove, ({ request, auth, body }) => family.remove(request, auth.user, body.user_id)),
    route(e.leave, ({ request, auth }) => family.leave(request, auth.user)),
    route(e.accept, ({ request, auth, body }) => family.accept(request, auth.user, body)),
    route(e.decline, ({ request, auth, body }) => family.decline(request, auth.user, body)),
  ];
}
