import { customerVpnEndpoints as staff } from '#shared/contracts/admin/customer-vpn.ts';
import { vpnEndpoints as e } from '#shared/contracts/vpn.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { countryFromLanguages, DevicesService } from './devices-service.ts';
import { langOf } from './fleet-query.ts';
import { locations } from './locations.ts';
import { vpnContext } from './vpn-context.ts';

const SUCCESS = { success: true } as const;

/** §2 download: the customer's devices; and staff's view of them on the customer page. */
export function deviceRoutes(app: App): Route[] {
  const devices = new DevicesService(vpnContext(app));
  const where = (headers: { 'accept-language'?: string | undefined }) => ({
    browserCountry: countryFromLanguages(headers['accept-language']),
  });
  return [
    route(e.locations, async ({ query, request, auth }) =>
      locations(
        app.db,
        langOf(query.lang),
        (await devices.nearOfUser(auth.user.id)) ?? where(request.headers).browserCountry,
      ),
    ),
    route(e.devices, ({ query, auth }) => devices.list(auth.user.id, langOf(query.lang))),
    route(e.create, ({ body, request, auth }) =>
      devices.create(
        { request, userId: auth.user.id },
        body,
        where(request.headers),
        auth.app?.grantId ?? null,
      ),
    ),
    route(e.config, ({ query, auth }) => devices.config(auth.user.id, query.device_id)),
    route(e.rename, ({ body, auth }) => devices.rename(auth.user.id, body.device_id, body.name)),
    route(e.move, ({ body, request, auth }) =>
      devices.move({ request, userId: auth.user.id }, body, where(request.headers)),
    ),
    route(e.rekey, ({ body, request, auth }) =>
      devices.rekey({ request, userId: auth.user.id }, body.device_id, body.public_key),
    ),
    route(e.delete, async ({ body, request, auth }) => {
      await devices.delete({ request, userId: auth.user.id }, body.device_id);
      return SUCCESS;
    }),
    route(staff.view, ({ query }) => devices.list(query.user_id, langOf(query.lang))),
    route(staff.deleteDevice, async ({ body, request, auth }) => {
      await devices.delete(
        { request, userId: body.user_id, actorId: auth.user.id },
        body.device_id,
        'customers.vpn_device_removed',
      );
      return SUCCESS;
    }),
  ];
}
