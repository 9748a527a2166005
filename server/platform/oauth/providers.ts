import { OAUTH_PROVIDERS, type OAuthProviderId } from '#shared/contracts/oauth.ts';
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

/** Where each provider signs people in unless told otherwise. */
export const DEFAULT_ISSUERS: Record<OAuthProviderId, string> = {
  google: 'https://accounts.google.com',
  apple: 'https://appleid.apple.com',
};

export function googleSettings(google: {
  issuer: string;
  clientId: string;
  clientSecret: string;
}): OAuthProviderSettings {
  return {
    id: 'google',
    name: 'Google',
    issuer: google.issuer,
    clientId: google.clientId,
    credentials: { kind: 'secret', secret: google.clientSecret },
    scope: 'openid email profile',
    responseMode: 'query',
  };
}

export function appleSettings(apple: {
  issuer: string;
  clientId: string;
  teamId: string;
  keyId: string;
  privateKey: string;
}): OAuthProviderSettings {
  return {
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
  };
}

/** The providers switched on by environment variables (docs/configuration.md). */
export function providersFromConfig(config: Pick<Config, 'oauth'>): OAuthProviderSettings[] {
  const { google, apple } = config.oauth;
  return [...(google ? [googleSettings(google)] : []), ...(apple ? [appleSettings(apple)] : [])];
}

/**
 * Settings kept in the database, per provider: a provider's settings replace the
 * environment's, `null` switches the provider off (a disabled row, or one that cannot be
 * used), and a provider left out keeps the environment's.
 */
export type ProviderOverrides = Partial<Record<OAuthProviderId, OAuthProviderSettings | null>>;

/** The switched-on providers once the database's rows have overridden the environment's. */
export function mergeProviders(
  fromEnvironment: readonly OAuthProviderSettings[],
  overrides: ProviderOverrides,
): OAuthProviderSettings[] {
  return OAUTH_PROVIDERS.flatMap((id) => {
    const settings =
      id in overrides ? overrides[id] : fromEnvironment.find((provider) => provider.id === id);
    return settings ? [settings] : [];
  });
}

/** Where the settings of the switched-on providers come from. */
export type ProviderSource = () => Promise<OAuthProviderSettings[]>;

/**
 * The switched-on providers, from the environment and the database (the admin "OAuth
 * providers" section), read through a source on every call so that a change of settings
 * needs no restart. Clients are cached by their settings (oidc-client.ts), so edited
 * settings get a fresh discovery.
 */
export class OAuthProviders {
  constructor(private readonly source: ProviderSource) {}

  static fromConfig(config: Pick<Config, 'oauth'>): OAuthProviders {
    const providers = providersFromConfig(config);
    return new OAuthProviders(async () => providers);
  }

  /** The environment's providers, overridden per provider by what `overrides` reads. */
  static fromConfigAndStore(
    config: Pick<Config, 'oauth'>,
    overrides: () => Promise<ProviderOverrides>,
  ): OAuthProviders {
    const fromEnvironment = providersFromConfig(config);
    return new OAuthProviders(async () => mergeProviders(fromEnvironment, await overrides()));
  }

  list(): Promise<OAuthProviderSettings[]> {
    return this.source();
  }

  /** The provider's settings, or undefined when it is unknown or switched off. */
  async find(id: string): Promise<OAuthProviderSettings | undefined> {
    return (await this.source()).find((provider) => provider.id === id);
  }
}
