import { z } from 'zod';
import { LANGS } from '../locales.ts';
import { requiredString } from '../validation/required.ts';
import { signInResponse } from './auth.ts';
import { endpoint } from './endpoint.ts';
import { listResponse, pagingQuery } from './list.ts';

// Social sign-in with Google and Apple (§1, §4, §7 OAuth), on the public base; the `auth`
// feature flag switches it off with sign-up. The flow:
//  1. The page lists the providers (`providers`) and opens a provider's
//     `href` in a 500×600 popup (§9). That href is our authorize endpoint: it remembers a
//     random state and a PKCE verifier in an httpOnly cookie and redirects to the provider.
//  2. The provider sends the browser back to our callback (GET, or POST for Apple's
//     form_post), which forwards to the app page /{lang}/oauth/callback?code&state&provider.
//  3. The opener, polling the popup every 500 ms, reads code and state there, closes the
//     popup and POSTs them to `token`; the server checks the state against
//     its cookie, exchanges the code, links or creates the user, and answers a one-time
//     token (§7).
//  4. The page exchanges that token for a session at `login`, which answers
//     like sign-in: the user, or code 102 when a two-factor code is needed (§4).

export const OAUTH_PROVIDERS = ['google', 'apple'] as const;
export type OAuthProviderId = (typeof OAUTH_PROVIDERS)[number];

/** The app page the callback forwards to, below `/{lang}/`. */
export const OAUTH_CALLBACK_PAGE = 'oauth/callback';

/**
 * §7 `?client_id`: an OAuth client of ours asking (VPN apps); the web app sends none. Paged
 * like every list (§3), though two providers always fit on the first page.
 */
export const oauthProvidersQuery = pagingQuery.extend({
  client_id: z.string().max(255).optional(),
});
export type OAuthProvidersQuery = z.infer<typeof oauthProvidersQuery>;

/** §3 OAuth provider: id and href, plus the name a button shows. */
export const oauthProvider = z.object({
  id: z.enum(OAUTH_PROVIDERS),
  name: z.string(),
  href: z.string(),
});
export type OAuthProvider = z.infer<typeof oauthProvider>;

/** Only the configured providers are listed: a provider without keys is off. */
export const oauthProvidersResponse = listResponse(oauthProvider);
export type OAuthProvidersResponse = z.infer<typeof oauthProvidersResponse>;

/**
 * The provider named in the path of authorize and callback. Any short text: an unknown or
 * switched-off provider is answered 404 provider_disabled, not a validation error.
 */
export const oauthProviderParams = z.object({ provider: z.string().max(32) });
export type OAuthProviderParams = z.infer<typeof oauthProviderParams>;

export const oauthAuthorizeQuery = z.object({ lang: z.enum(LANGS).optional() });

/**
 * What a provider sends back to the callback, by query or by Apple's form post (RFC 6749
 * §4.1.2, RFC 9207 `iss`, Apple's `user`); anything else is dropped.
 */
export const oauthProviderAnswer = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(256).optional(),
  iss: z.string().max(512).optional(),
  user: z.string().max(4096).optional(),
});
export type OAuthProviderAnswer = z.infer<typeof oauthProviderAnswer>;

/** §7 auth/token {code, provider_id, response_type}, plus the state the callback carried. */
export const oauthTokenRequest = z.object({
  code: requiredString(4096),
  provider_id: z.enum(OAUTH_PROVIDERS, { error: 'input_errors.field_is_invalid' }),
  response_type: z.literal('code', { error: 'input_errors.field_is_invalid' }),
  state: requiredString(512),
});
export type OAuthTokenRequest = z.infer<typeof oauthTokenRequest>;

/** The one-time token that signs the user in once, within a minute. */
export const oauthTokenResponse = z.object({ token: z.string() });
export type OAuthTokenResponse = z.infer<typeof oauthTokenResponse>;

/** Answered like sign-in (shared/contracts/auth.ts signInResponse). */
export const oauthLoginRequest = z.object({ token: requiredString(2048) });
export type OAuthLoginRequest = z.infer<typeof oauthLoginRequest>;

/** Message keys the social sign-in answers with. */
export const OAUTH_MESSAGES = {
  /** The state did not match this browser's, or the flow took too long. */
  stateMismatch: 'errors.oauth_state_mismatch',
  /** The provider refused or failed the code exchange. */
  providerFailed: 'errors.oauth_provider_failed',
  /** The provider has not verified the address, so it cannot be linked to an account. */
  emailUnverified: 'errors.oauth_email_unverified',
  providerDisabled: 'errors.oauth_provider_disabled',
} as const;

const socialSignIn = { base: 'public', access: 'public', feature: 'auth', tag: 'oauth' } as const;

export const oauthEndpoints = {
  // `client_id` (an OAuth client of ours asking) changes nothing until such clients exist.
  providers: endpoint({
    ...socialSignIn,
    method: 'GET',
    path: '/oauth-client/providers',
    summary: 'The social sign-in providers switched on',
    query: oauthProvidersQuery,
    response: oauthProvidersResponse,
  }),
  /** `?lang=` — remembers this browser's sign-in in a cookie and redirects to the provider. */
  authorize: endpoint({
    ...socialSignIn,
    method: 'GET',
    path: '/oauth-client/authorize/:provider',
    summary: "Remember this browser's sign-in and redirect to the provider",
    params: oauthProviderParams,
    query: oauthAuthorizeQuery,
    produces: 'redirect',
  }),
  /** Where the provider sends the browser back (query), forwarded to the app page. */
  callback: endpoint({
    ...socialSignIn,
    method: 'GET',
    path: '/oauth-client/callback/:provider',
    summary: 'Where the provider redirects back; forwards to the app page',
    params: oauthProviderParams,
    query: oauthProviderAnswer,
    produces: 'redirect',
  }),
  /** Apple's response_mode=form_post: the same callback as a cross-site form POST. */
  callbackFormPost: endpoint({
    ...socialSignIn,
    method: 'POST',
    path: '/oauth-client/callback/:provider',
    summary: 'Where Apple posts its answer (form_post); forwards to the app page',
    params: oauthProviderParams,
    body: oauthProviderAnswer,
    produces: 'redirect',
  }),
  token: endpoint({
    ...socialSignIn,
    method: 'POST',
    path: '/oauth-client/auth/token',
    summary: 'Exchange the code for a one-time sign-in token',
    body: oauthTokenRequest,
    response: oauthTokenResponse,
  }),
  login: endpoint({
    ...socialSignIn,
    method: 'POST',
    path: '/oauth-client/auth/login',
    summary: 'Sign in with the one-time token; answers code 102 when 2FA is needed',
    body: oauthLoginRequest,
    response: signInResponse,
  }),
};
