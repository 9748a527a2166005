import { OIDC_SCOPES } from '../contracts/oidc.ts';

// What staff may register as an OAuth client of ours (§2 /admin/oauth/server), one rule for
// the form in the browser and the server alike. Free of zod, like the other rules both sides
// read. The provider checks the same things again when it loads a client (oidc-provider's
// client schema); refusing them here puts the reason under the field instead of failing a
// sign-in later.

export const OAUTH_CLIENT_TYPES = ['public', 'confidential'] as const;
export type OAuthClientType = (typeof OAUTH_CLIENT_TYPES)[number];

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
export const OAUTH_GRANT_TYPES = [
  'authorization_code',
  'refresh_token',
  DEVICE_CODE_GRANT,
] as const;
export type OAuthGrantType = (typeof OAUTH_GRANT_TYPES)[number];

export const OAUTH_CLIENT_SCOPES = OIDC_SCOPES as readonly string[];

/** Message keys of the refusals (staff's own texts, admin-oauth.json). */
export const OAUTH_CLIENT_MESSAGES = {
  uriInvalid: 'staff_oauth.errors.uri_invalid',
  uriFragment: 'staff_oauth.errors.uri_fragment',
  uriHttps: 'staff_oauth.errors.uri_https',
  /** A custom scheme (com.example.app:/…) is for apps on a device: public clients. */
  appSchemePublicOnly: 'staff_oauth.errors.app_scheme_public_only',
  /** RFC 8252 §8.3: a native app's loopback redirect is plain http. */
  loopbackHttps: 'staff_oauth.errors.loopback_https',
  uriDuplicate: 'staff_oauth.errors.uri_duplicate',
  redirectRequired: 'staff_oauth.errors.redirect_required',
  grantRequired: 'staff_oauth.errors.grant_required',
  /** A refresh token is only ever given with a code or a device sign-in. */
  refreshAlone: 'staff_oauth.errors.refresh_alone',
  deviceCodePublicOnly: 'staff_oauth.errors.device_code_public_only',
  scopeRequired: 'staff_oauth.errors.scope_required',
  logoHttps: 'staff_oauth.errors.logo_https',
  /** No secret: rotate to make one before it can sign anyone in again. */
  noSecret: 'staff_oauth.errors.no_secret',
  publicNoSecret: 'staff_oauth.errors.public_no_secret',
} as const;

const M = OAUTH_CLIENT_MESSAGES;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * RFC 8252 §7.1: a private-use scheme is a reverse domain name the app's owner controls
 * (`com.example.app`), which also keeps out `javascript:`, `data:` and the like (no dot).
 */
const APP_SCHEME = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+:$/;

/** Why a redirect URI (or post-logout URI) is refused for a client of this type, or null. */
export function redirectUriProblem(uri: string, type: OAuthClientType): string | null {
  if (uri.includes('#')) return M.uriFragment;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return M.uriInvalid;
  }
  if (url.username !== '' || url.password !== '') return M.uriInvalid;
  if (url.protocol === 'https:') {
    if (type === 'public' && LOOPBACK_HOSTS.has(url.hostname)) return M.loopbackHttps;
    return url.hostname === '' ? M.uriInvalid : null;
  }
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname) ? null : M.uriHttps;
  if (!APP_SCHEME.test(url.protocol)) return M.uriInvalid;
  return type === 'public' ? null : M.appSchemePublicOnly;
}

/** What a client's fields must agree on, besides each field's own shape. */
export interface ClientShape {
  type: OAuthClientType;
  redirect_uris: readonly string[];
  post_logout_redirect_uris: readonly string[];
  grant_types: readonly string[];
  scopes: readonly string[];
  logo_uri?: string | null | undefined;
}

export interface ClientProblem {
  /** The field the message goes under. */
  field: keyof ClientShape;
  message: string;
}

function uriListProblem(uris: readonly string[], type: OAuthClientType): string | null {
  for (const uri of uris) {
    const problem = redirectUriProblem(uri, type);
    if (problem) return problem;
  }
  return new Set(uris).size === uris.length ? null : M.uriDuplicate;
}

/** Every refusal of a client's fields, at most one per field. */
export function clientProblems(client: ClientShape): ClientProblem[] {
  const problems: ClientProblem[] = [];
  const add = (field: keyof ClientShape, message: string | null) => {
    if (message) problems.push({ field, message });
  };
  const grants = client.grant_types;
  add('redirect_uris', uriListProblem(client.redirect_uris, client.type));
  add('post_logout_redirect_uris', uriListProblem(client.post_logout_redirect_uris, client.type));
  if (!problems.some((problem) => problem.field === 'redirect_uris')) {
    add(
      'redirect_uris',
      grants.includes('authorization_code') && client.redirect_uris.length === 0
        ? M.redirectRequired
        : null,
    );
  }
  if (grants.length === 0) add('grant_types', M.grantRequired);
  else if (grants.includes(DEVICE_CODE_GRANT) && client.type !== 'public') {
    add('grant_types', M.deviceCodePublicOnly);
  } else if (grants.every((grant) => grant === 'refresh_token')) {
    add('grant_types', M.refreshAlone);
  }
  if (client.scopes.length === 0) add('scopes', M.scopeRequired);
  if (client.logo_uri) {
    let https = false;
    try {
      https = new URL(client.logo_uri).protocol === 'https:';
    } catch {
      // Refused below.
    }
    add('logo_uri', https && !client.logo_uri.includes('#') ? null : M.logoHttps);
  }
  return problems;
}
