import { z } from 'zod';
import { endpoint } from './endpoint.ts';

// The product as an OpenID provider for its own apps (issue 24). The protocol's endpoints
// (/.well-known/openid-configuration, /oidc/auth, /oidc/token, …) are oidc-provider's, not
// declared here; what is declared is our side of its interactions: the browser comes to
// `interaction` when the provider needs a person, which either finishes at once (signed in,
// a first-party app or a grant already given) or sends them to sign in or to the consent
// screen, which reads `interactionDetails` and answers with `confirm` or `abort`. Each of
// these lives below the interaction's own path, where the provider's cookie binds the
// interaction to the browser that started it.

/** Where the provider's own endpoints are mounted, below the site's origin (the issuer). */
export const OIDC_PREFIX = '/oidc';

/**
 * What an app may ask for besides OpenID's own scopes: `account` (who am I, the current
 * subscription), `vpn` (the server list, its WireGuard devices).
 */
export const OIDC_API_SCOPES = ['account', 'vpn'] as const;
export type OidcApiScope = (typeof OIDC_API_SCOPES)[number];
export const OIDC_SCOPES = ['openid', 'offline_access', 'profile', 'email', ...OIDC_API_SCOPES];

export const interactionParams = z.object({ uid: z.string().min(1).max(64) });

export const interactionDetailsResponse = z.object({
  client: z.object({
    name: z.string(),
    logo_uri: z.string().nullable(),
    first_party: z.boolean(),
  }),
  /** The scopes the app asks for that this person has not allowed it yet. */
  scopes: z.array(z.string()),
  /** The signed-in person the app will act for. */
  email: z.string(),
});
export type InteractionDetailsResponse = z.infer<typeof interactionDetailsResponse>;

/** Where the browser goes next: back to the provider, which answers the app. */
export const interactionRedirectResponse = z.object({ redirect_to: z.string() });
export type InteractionRedirectResponse = z.infer<typeof interactionRedirectResponse>;

/** The interactions' own path, which the provider's cookie is bound to. */
export const interactionPath = (uid: string) =>
  `/api/public/v1/oauth/interactions/${encodeURIComponent(uid)}`;

const interaction = { base: 'public', tag: 'oidc' } as const;

export const oidcEndpoints = {
  /** Where the provider sends the browser: finishes, or goes on to sign-in or consent. */
  interaction: endpoint({
    ...interaction,
    access: 'public',
    method: 'GET',
    path: '/oauth/interactions/:uid',
    summary: 'An app asks for this person: sign in, consent or finish',
    params: interactionParams,
    produces: 'redirect',
  }),
  interactionDetails: endpoint({
    ...interaction,
    access: 'active',
    method: 'GET',
    path: '/oauth/interactions/:uid/details',
    summary: 'The app asking and the scopes it wants, for the consent screen',
    params: interactionParams,
    response: interactionDetailsResponse,
  }),
  confirm: endpoint({
    ...interaction,
    access: 'active',
    method: 'POST',
    path: '/oauth/interactions/:uid/confirm',
    summary: 'Allow the app the scopes it asked for',
    params: interactionParams,
    response: interactionRedirectResponse,
  }),
  abort: endpoint({
    ...interaction,
    access: 'active',
    method: 'POST',
    path: '/oauth/interactions/:uid/abort',
    summary: 'Refuse the app',
    params: interactionParams,
    response: interactionRedirectResponse,
  }),
};
