import type { OAuthProviderId } from '#shared/contracts/oauth.ts';
import type { Config } from '../../config.ts';

/** How our client proves itself at a provider's token endpoint. */
export type ClientCredentials =
  | { kind: 'secret'; secret: string }
  /** Apple: a short-lived ES256 JWT made per exchange (apple-client-secret.ts). */
  | { kind: 'apple-jwt'; teamId: string; keyId: string; privateKey: string };

/** Everything needed to run the code flow against one OpenID provider. */
export interface OAuthProviderSettings {
  id: OAuthProviderId;
  /** What the sign-in button says. */
  name: string;
  issuer: string;
  clientId: string;
  credentials: ClientCredentials;
  scope: string;
  /** Apple answers with a cross-site form POST; Google with a redirect carrying a query. */
  responseMode: 'query' | 'form_post';
}

/** The providers switched on by environment variables (docs/configuration.md). */
export function providersFromConfig(config: Pick<Config, 'oauth'>): OAuthProviderSettings[] {
  const { google, apple } = config.oauth;
  const providers: OAuthProviderSettings[] = [];
  if (google) {
    providers.push({
      id: 'google',
      name: 'Google',
      issuer: google.issuer,
      clientId: google.clientId,
      credentials: { kind: 'secret', secret: google.clientSecret },
      scope: 'openid email profile',
      responseMode: 'query',
    });
  }
  if (apple) {
    providers.push({
      id: 'apple',
      name: 'Apple',
      issuer: apple.issuer,
      clientId: apple.clientId,
      credentials: {
        kind: 'apple-jwt',
        teamId: apple.teamId,
        keyId: apple.keyId,
        privateKey: apple.privateKey,
      },
      // Apple has no `profile` scope; `name` is sent once, in the first form post.
      scope: 'openid email name',
      responseMode: 'form_post',
    });
  }
  return providers;
}

/** Where the settings of the switched-on providers come from. */
export type ProviderSource = () => Promise<OAuthProviderSettings[]>;

/**
 * The switched-on providers, read through a source on every call so that a change of
 * settings needs no restart. Today the source is the environment; the admin "OAuth
 * providers" section will add a source reading the settings stored in the database, merged
 * here (for example the database's row overriding the environment's per id). Clients are
 * cached by their settings (oidc-client.ts), so edited settings get a fresh discovery.
 */
export class OAuthProviders {
  constructor(private readonly source: ProviderSource) {}

  static fromConfig(config: Pick<Config, 'oauth'>): OAuthProviders {
    const providers = providersFromConfig(config);
    return new OAuthProviders(async () => providers);
  }

  list(): Promise<OAuthProviderSettings[]> {
    return this.source();
  }

  /** The provider's settings, or undefined when it is unknown or switched off. */
  async find(id: string): Promise<OAuthProviderSettings | undefined> {
    return (await this.source()).find((provider) => provider.id === id);
  }
}
