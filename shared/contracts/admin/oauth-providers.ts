import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { OAUTH_PROVIDERS } from '../oauth.ts';

// §2 /admin/oauth/client: the providers people sign in with (Google, Apple), admin only.
// Sealed at rest like the payment gateways' keys, and write-only: the answer says whether a
// secret is set, never what it is; a save that leaves it out keeps it. A save takes effect at
// the next sign-in in every process: sign-in reads the settings from the database each time.

const invalid = { error: 'input_errors.field_is_invalid' };

export const oauthProviderSettingsView = z
  .object({
    provider: z.enum(OAUTH_PROVIDERS),
    /** Signing people in now. */
    enabled: z.boolean(),
    /** Where the settings in force come from: staff's (which win), the environment, none. */
    source: z.enum(['admin', 'environment', 'none']),
    issuer: z.string(),
    client_id: z.string(),
    /** Google: whether a client secret is set; Apple: whether the key's PEM is. */
    secret_set: z.boolean(),
    apple_team_id: z.string().nullable(),
    apple_key_id: z.string().nullable(),
    /** The redirect URI to register with the provider. */
    callback_url: z.string(),
  })
  .meta({ id: 'OAuthProviderSettings' });
export type OAuthProviderSettingsView = z.infer<typeof oauthProviderSettingsView>;

const field = (max: number) => z.string(invalid).trim().max(max, invalid);

export const oauthProviderSettingsUpdate = z.object({
  provider: z.enum(OAUTH_PROVIDERS, invalid),
  enabled: z.boolean(invalid),
  client_id: field(255).default(''),
  /** The provider's own issuer when empty (a stand-in provider in tests sets its own). */
  issuer: field(500).optional(),
  /** Write-only; left out or empty, the stored one stays. Apple: the .p8 key's PEM. */
  secret: field(10_000).optional(),
  apple_team_id: field(20).optional(),
  apple_key_id: field(20).optional(),
});
export type OAuthProviderSettingsUpdate = z.input<typeof oauthProviderSettingsUpdate>;

const admin = {
  base: 'dashboard',
  access: { permission: 'oauth' },
  tag: 'oauth-providers',
} as const;

export const oauthProviderSettingsEndpoints = {
  list: endpoint({
    ...admin,
    method: 'GET',
    path: '/oauth/providers',
    summary: "Google's and Apple's sign-in settings as in force (secrets only as set or not)",
    response: z.object({ items: z.array(oauthProviderSettingsView) }),
  }),
  update: endpoint({
    ...admin,
    method: 'POST',
    path: '/oauth/providers/update',
    summary: "Sets a provider's keys (sealed at rest) or switches it off; from the next sign-in",
    body: oauthProviderSettingsUpdate,
    response: z.object({ item: oauthProviderSettingsView }),
  }),
} as const;
