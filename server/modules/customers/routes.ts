import { customerEndpoints as e } from '#shared/contracts/admin/customers.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { ProfileService } from '../account/profile-service.ts';
import { AuthService } from '../identity/auth-service.ts';
import { TwoFactorService } from '../identity/two-factor/two-factor-service.ts';
import { listCustomers } from './customers-query.ts';
import { CustomersService } from './customers-service.ts';

const SUCCESS = { success: true } as const;

/** §2 /admin/customers, §7 dashboard /users: admin only, while the `users` flag is on. */
export function customerRoutes(app: App): Route[] {
  const customers = new CustomersService(app, {
    auth: new AuthService(app, new TwoFactorService(app)),
    profile: new ProfileService(app),
  });
  const answer = async (user: Promise<Awaited<ReturnType<CustomersService['view']>>>) => ({
    user: await user,
  });

  return [
    route(e.list, ({ query }) => listCustomers(app.db, query)),
    route(e.view, ({ query }) => answer(customers.view(query.user_id))),
    route(e.create, ({ request, auth, body }) => answer(customers.create(request, auth, body))),
    route(e.update, ({ request, auth, body }) => answer(customers.update(request, auth, body))),
    route(e.updateTrafficLimit, ({ request, auth, body }) =>
      answer(customers.updateTrafficLimit(request, auth, body.user_id, body.traffic_limit)),
    ),
    route(e.devices, ({ query }) => customers.devices(query.user_id, query)),
    route(e.logoutDevice, async ({ request, auth, body }) => {
      await customers.logoutDevice(request, auth, body.user_id, body.id);
      return SUCCESS;
    }),
    route(e.block, ({ request, auth, body }) =>
      answer(customers.block(request, auth, body.user_id, body.status, body.password)),
    ),
    route(e.delete, ({ request, auth, body }) =>
      answer(customers.deactivate(request, auth, body.user_id, body.password)),
    ),
    route(e.deleteCancel, ({ request, auth, body }) =>
      answer(customers.reactivate(request, auth, body.user_id, body.password)),
    ),
    route(e.updatePassword, ({ request, auth, body }) =>
      answer(customers.updatePassword(request, auth, body)),
    ),
    route(e.disableTwoFactor, ({ request, auth, body }) =>
      answer(customers.disableTwoFactor(request, auth, body.user_id, body.password)),
    ),
    route(e.resendActivationLink, async ({ request, auth, body }) => {
      await customers.resendActivationLink(request, auth, body.user_id);
      return SUCCESS;
    }),
    route(e.cancelEmailChange, ({ request, auth, body }) =>
      answer(customers.cancelEmailChange(request, auth, body.user_id)),
    ),
    route(e.resendEmailChange, async ({ request, auth, body }) => {
      await customers.resendEmailChange(request, auth, body.user_id);
      return SUCCESS;
    }),
  ];
}
