import type { CustomerDetail } from '#shared/contracts/admin/customers.ts';
import { customerEndpoints as e } from '#shared/contracts/admin/customers.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { ProfileService } from '../account/profile-service.ts';
import { AuthService } from '../identity/auth-service.ts';
import { TwoFactorService } from '../identity/two-factor/two-factor-service.ts';
import { CustomerAccessService } from './customer-access-service.ts';
import { listCustomers } from './customers-query.ts';
import { CustomersService } from './customers-service.ts';

const SUCCESS = { success: true } as const;
const answer = async (user: Promise<CustomerDetail>) => ({ user: await user });

/** §2 /admin/customers, §7 dashboard /users: admin only, while the `users` flag is on. */
export function customerRoutes(app: App): Route[] {
  const customers = new CustomersService(app, {
    auth: new AuthService(app, new TwoFactorService(app)),
    profile: new ProfileService(app),
  });
  const access = new CustomerAccessService(app);

  return [
    route(e.list, ({ query }) => listCustomers(app.db, query)),
    route(e.view, ({ query }) => answer(customers.view(query.user_id))),
    route(e.create, ({ request, auth, body }) =>
      answer(customers.create({ request, actor: auth }, body)),
    ),
    route(e.update, ({ request, auth, body }) =>
      answer(customers.update({ request, actor: auth }, body)),
    ),
    route(e.updateTrafficLimit, ({ request, auth, body }) =>
      answer(
        customers.updateTrafficLimit({ request, actor: auth }, body.user_id, body.traffic_limit),
      ),
    ),
    route(e.resendActivationLink, async ({ request, auth, body }) => {
      await customers.resendActivationLink({ request, actor: auth }, body.user_id);
      return SUCCESS;
    }),
    route(e.cancelEmailChange, ({ request, auth, body }) =>
      answer(customers.cancelEmailChange({ request, actor: auth }, body.user_id)),
    ),
    route(e.resendEmailChange, async ({ request, auth, body }) => {
      await customers.resendEmailChange({ request, actor: auth }, body.user_id);
      return SUCCESS;
    }),
    route(e.block, ({ request, auth, body }) =>
      answer(access.block({ request, actor: auth }, body.user_id, body.status, body.password)),
    ),
    route(e.delete, ({ request, auth, body }) =>
      answer(access.deactivate({ request, actor: auth }, body.user_id, body.password)),
    ),
    route(e.deleteCancel, ({ request, auth, body }) =>
      answer(access.reactivate({ request, actor: auth }, body.user_id, body.password)),
    ),
    route(e.updatePassword, ({ request, auth, body }) =>
      answer(access.updatePassword({ request, actor: auth }, body)),
    ),
    route(e.disableTwoFactor, ({ request, auth, body }) =>
      answer(access.disableTwoFactor({ request, actor: auth }, body.user_id, body.password)),
    ),
    route(e.devices, ({ query }) => access.devices(query.user_id, query)),
    route(e.logoutDevice, async ({ request, auth, body }) => {
      await access.logoutDevice({ request, actor: auth }, body.user_id, body.id);
      return SUCCESS;
    }),
  ];
}
