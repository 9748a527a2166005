import * as oidc from 'openid-client';
import { appleClientSecret } from './apple-client-secret.ts';
import type { OAuthProviderSettings } from './providers.ts';

/** Seconds a provider may take to answer one request before the sign-in fails. */
const TIMEOUT_SECONDS = 10;

/** The person the provider vouches for, from the validated id_token. */
export interface OAuthIdentity {
  /** The provider's stable id of the person (`sub`). */
  subject: string;
  /** Lower-cased. */
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
}

/** What binds an authorization response to the browser that started it. */
export interface AuthorizationChecks {
  state: string;
  codeVerifier: string;
  nonce: string;
}

/** The provider refused, answered something invalid, or could not be reached. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
}

export function newAuthorizationChecks(): AuthorizationChecks {
  return {
    state: oidc.randomState(),
    codeVerifier: oidc.randomPKCECodeVerifier(),
    nonce: oidc.randomNonce(),
  };
}

function clientAuth(settings: OAuthProviderSettings): oidc.ClientAuth {
  const { credentials } = settings;
  if (credentials.kind === 'secret') return oidc.ClientSecretPost(credentials.secret);
  // A fresh Apple secret for every token request, so no long-lived secret exists anywhere.
  return (server, client, body, headers) =>
    oidc.ClientSecretPost(appleClientSecret({ ...credentials, clientId: settings.clientId }))(
      server,
      client,
      body,
      headers,
    );
}

async function discover(settings: OAuthProviderSettings): Promise<oidc.Configuration> {
  // Plain http only for a stand-in provider on loopback (tests); real issuers are https.
  const insecure = new URL(settings.issuer).protocol === 'http:';
  return oidc.discovery(
    new URL(settings.issuer),
    settings.clientId,
    undefined,
    clientAuth(settings),
    {
      timeout: TIMEOUT_SECONDS,
      ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
    },
  );
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Apple sends `email_verified` as the string "true"; Google as a boolean. */
export function identityFromClaims(claims: oidc.IDToken): OAuthIdentity {
  const fullName = [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ');
  return {
    subject: claims.sub,
    email: text(claims.email)?.toLowerCase(),
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
    name: text(claims.name) ?? (fullName || undefined),
  };
}

/**
 * The OpenID code flow with PKCE through openid-client, one cached discovery per provider
 * settings. Every failure of the provider surfaces as a ProviderError.
 */
export class OidcClients {
  // Keyed by the whole settings, so settings edited later get their own discovery. A failed
  // discovery is forgotten, so the next sign-in tries again.
  private readonly configurations = new Map<string, Promise<oidc.Configuration>>();

  private configuration(settings: OAuthProviderSettings): Promise<oidc.Configuration> {
    const key = JSON.stringify(settings);
    let configuration = this.configurations.get(key);
    if (!configuration) {
      configuration = discover(settings);
      configuration.catch(() => this.configurations.delete(key));
      this.configurations.set(key, configuration);
    }
    return configuration;
  }

  async authorizationUrl(
    settings: OAuthProviderSettings,
    redirectUri: string,
    checks: AuthorizationChecks,
  ): Promise<URL> {
    try {
      const configuration = await this.configuration(settings);
      return oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: settings.scope,
        state: checks.state,
        nonce: checks.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
        ...(settings.responseMode === 'form_post' ? { response_mode: 'form_post' } : {}),
      });
    } catch (error) {
      throw new ProviderError(`authorization request to ${settings.id} failed`, { cause: error });
    }
  }

  /** Exchanges the code (with the PKCE verifier) and validates the id_token and its nonce. */
  async identity(
    settings: OAuthProviderSettings,
    redirectUri: string,
    code: string,
    checks: AuthorizationChecks,
  ): Promise<OAuthIdentity> {
    let claims: oidc.IDToken | undefined;
    try {
      const configuration = await this.configuration(settings);
      const server = configuration.serverMetadata();
      // The authorization response, as our callback received it. The browser brings back
      // only code and state; `iss` (RFC 9207) was checked against this provider there.
      const response = new URL(redirectUri);
      response.searchParams.set('code', code);
      response.searchParams.set('state', checks.state);
      if (server.authorization_response_iss_parameter_supported) {
        response.searchParams.set('iss', server.issuer);
      }
      const tokens = await oidc.authorizationCodeGrant(configuration, response, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      throw new ProviderError(`code exchange with ${settings.id} failed`, { cause: error });
    }
    if (!claims) throw new ProviderError(`${settings.id} answered no id_token`);
    return identityFromClaims(claims);
  }
}
