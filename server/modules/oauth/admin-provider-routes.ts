import { oauthProviderSettingsEndpoints as e } from '#shared/contracts/admin/oauth-providers.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { saveProviderSettings } from './provider-settings.ts';
import { presentProviderSettings } from './provider-settings-view.ts';

/**
 * §2 /admin/oauth/client: Google's and Apple's settings, admin only. Nothing to reload after a
 * save: sign-in reads the settings from the database on every start and callback
 * (oauth-service.ts), in every process, and makes Apple's client-secret JWT per exchange.
 */
export function adminOAuthProviderRoutes(app: App): Route[] {
  return [
    route(e.list, async () => ({ items: await presentProviderSettings(app) })),
    route(e.update, async ({ request, auth, body }) => {
      await saveProviderSettings(app, request, auth.user.id, {
        id: body.provider,
        enabled: body.enabled,
        issuer: body.issuer,
        clientId: body.client_id,
        secret: body.secret,
        appleTeamId: body.apple_team_id,
        appleKeyId: body.apple_key_id,
      });
      const items = await presentProviderSettings(app);
      const item = items.find((view) => view.provider === body.provider);
      if (!item) throw new Error(`no settings view for ${body.provider}`);
      return { item };
    }),
  ];
}
