import { accountEndpoints } from '#shared/contracts/account.ts';
import { ownAccountRoutes, type Route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { clearSessionCookie } from '../identity/auth-plugin.ts';
import { DevicesService } from './devices-service.ts';

const SUCCESS = { success: true } as const;

/** §7 devices: the signed-in browsers of the user, for customers and staff alike. */
export function devicesRoutes(app: App): Route[] {
  const devices = new DevicesService(app);
  const e = accountEndpoints;

  return [
    ...ownAccountRoutes(e.devices, ({ auth, query }) =>
      devices.list(auth.user, auth.session.id, query),
    ),
    ...ownAccountRoutes(e.logoutDevice, async ({ request, reply, auth, body }) => {
      await devices.logOutDevice(request, auth.user, body.password, body.id);
      if (body.id === auth.session.id) clearSessionCookie(reply, app.config);
      return SUCCESS;
    }),
    ...ownAccountRoutes(e.logoutOtherDevices, async ({ request, auth, body }) => {
      await devices.logOutOtherDevices(request, auth.user, body.password, auth.session.id);
      return SUCCESS;
    }),
    ...ownAccountRoutes(e.logoutAllDevices, async ({ request, reply, auth, body }) => {
      await devices.logOutAllDevices(request, auth.user, body.password);
      clearSessionCookie(reply, app.config);
      return SUCCESS;
    }),
  ];
}
