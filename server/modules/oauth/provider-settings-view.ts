import type { OAuthProviderSettingsView } from '#shared/contracts/admin/oauth-providers.ts';
import { endpointUrl } from '#shared/contracts/endpoint.ts';
import { OAUTH_PROVIDERS, type OAuthProviderId, oauthEndpoints } from '#shared/contracts/oauth.ts';
import type { Config } from '../../config.ts';
import { oauthProviders } from '../../db/schema/index.ts';
import { DEFAULT_ISSUERS } from '../../platform/oauth/providers.ts';
import type { ProviderSettingsDeps } from './provider-settings.ts';

export interface ProviderViewDeps extends ProviderSettingsDeps {
  config: Pick<Config, 'appUrl' | 'oauth'>;
}

/** Whether a sealed secret opens to something: one sealed under another APP_SECRET does not. */
function opens(deps: ProviderSettingsDeps, sealed: string): boolean {
  try {
    return deps.oauthProviderBox.open(sealed) !== '';
  } catch {
    return false;
  }
}

/**
 * Each provider's settings as staff see them (§2 /admin/oauth/client): staff's row if there is
 * one (it wins), else the environment's. A secret is only ever "set" or not: the presenter
 * never reads one into its answer.
 */
export async function presentProviderSettings(
  deps: ProviderViewDeps,
): Promise<OAuthProviderSettingsView[]> {
  const rows = await deps.db.select().from(oauthProviders);
  return OAUTH_PROVIDERS.map((provider: OAuthProviderId) => {
    const callback_url = `${deps.config.appUrl}${endpointUrl(oauthEndpoints.callback.url, { provider })}`;
    const row = rows.find((stored) => stored.id === provider);
    if (row) {
      const secretSet = opens(deps, row.secretSealed);
      const complete =
        row.clientId !== '' &&
        secretSet &&
        (provider !== 'apple' || (!!row.appleTeamId && !!row.appleKeyId));
      return {
        provider,
        enabled: row.enabled && complete,
        source: 'admin',
        issuer: row.issuer,
        client_id: row.clientId,
        secret_set: secretSet,
        apple_team_id: row.appleTeamId,
        apple_key_id: row.appleKeyId,
        callback_url,
      };
    }
    const google = provider === 'google' ? deps.config.oauth.google : undefined;
    const apple = provider === 'apple' ? deps.config.oauth.apple : undefined;
    const fromEnvironment = google ?? apple;
    return {
      provider,
      enabled: fromEnvironment !== undefined,
      source: fromEnvironment ? 'environment' : 'none',
      issuer: fromEnvironment?.issuer ?? DEFAULT_ISSUERS[provider],
      client_id: fromEnvironment?.clientId ?? '',
      secret_set: fromEnvironment !== undefined,
      apple_team_id: apple?.teamId ?? null,
      apple_key_id: apple?.keyId ?? null,
      callback_url,
    };
  });
}
