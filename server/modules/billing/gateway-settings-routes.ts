import type { RealGatewayName } from '#shared/billing/gateway-settings.ts';
import { gatewaySettingsEndpoints } from '#shared/contracts/admin/payment-gateways.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { configureGateways, gatewaySettingsDeps } from './configure-gateways.ts';
import { presentGatewaySettings, saveGatewaySettings } from './gateway-settings-store.ts';

/** Staff's gateway settings (§2 /admin/payment-gateways/…): see them, set them, at once. */
export function gatewaySettingsRoutes(app: App): Route[] {
  const e = gatewaySettingsEndpoints;
  const deps = gatewaySettingsDeps(app);
  const selling = () =>
    new Set(
      app.payments
        .enabled()
        .map((gateway) => gateway.name)
        .filter((name): name is RealGatewayName => name !== 'sandbox' && name !== 'bonus'),
    );
  return [
    route(e.list, async () => ({ items: await presentGatewaySettings(deps, selling()) })),
    route(e.update, async ({ auth, body, request }) => {
      await saveGatewaySettings(deps, request, auth.user.id, body);
      await configureGateways(app);
      const items = await presentGatewaySettings(deps, selling());
      const item = items.find((view) => view.gateway === body.gateway);
      if (!item) throw new Error(`no settings view for ${body.gateway}`);
      return { item };
    }),
  ];
}
