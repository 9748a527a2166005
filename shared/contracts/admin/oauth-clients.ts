import { z } from 'zod';
import {
  clientProblems,
  OAUTH_CLIENT_SCOPES,
  OAUTH_CLIENT_TYPES,
  OAUTH_GRANT_TYPES,
} from '../../oauth/client-rules.ts';
import { requiredString } from '../../validation/required.ts';
import { endpoint } from '../endpoint.ts';
import { listResponse, pagingQuery, searchFilter, sortQuery } from '../list.ts';

// §2 /admin/oauth/server: the apps that sign people in through us (issue 24), admin only.
// A confidential client's secret is answered once, when it is made or rotated, and kept only
// sealed; the rules that tie the fields together are shared/oauth/client-rules.ts.

const invalid = { error: 'input_errors.field_is_invalid' };
const isoDate = z.iso.datetime({ offset: true });

/** The public id of a client (`vpnc_…`, or a demo's fixed one), never a row number. */
export const oauthClientId = requiredString(255);

const uriList = z.array(z.string(invalid).trim().max(2_000, invalid), invalid).max(20, invalid);

/** What staff set on a client, whatever its type. */
export const oauthClientFields = z.object({
  name: requiredString(100),
  first_party: z.boolean(invalid).default(false),
  redirect_uris: uriList.default([]),
  post_logout_redirect_uris: uriList.default([]),
  grant_types: z.array(z.enum(OAUTH_GRANT_TYPES, invalid), invalid).max(3, invalid),
  scopes: z
    .array(z.enum(OAUTH_CLIENT_SCOPES as [string, ...string[]], invalid), invalid)
    .max(OAUTH_CLIENT_SCOPES.length, invalid),
  logo_uri: z.string(invalid).trim().max(2_000, invalid).nullable().default(null),
});

const withType = oauthClientFields.extend({ type: z.enum(OAUTH_CLIENT_TYPES, invalid) });

/** A client's fields checked as a whole for its type: each refusal under its field. */
export const oauthClientCreateRequest = withType.superRefine((client, ctx) => {
  for (const problem of clientProblems(client)) {
    ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  }
});
export type OAuthClientCreateRequest = z.output<typeof oauthClientCreateRequest>;
export type OAuthClientCreateInput = z.input<typeof oauthClientCreateRequest>;

/** The type is fixed once made; the server checks the fields against the stored one. */
export const oauthClientUpdateRequest = oauthClientFields.extend({ client_id: oauthClientId });
export type OAuthClientUpdateRequest = z.output<typeof oauthClientUpdateRequest>;

export const adminOAuthClient = z
  .object({
    client_id: z.string(),
    name: z.string(),
    type: z.enum(OAUTH_CLIENT_TYPES),
    first_party: z.boolean(),
    redirect_uris: z.array(z.string()),
    post_logout_redirect_uris: z.array(z.string()),
    grant_types: z.array(z.string()),
    scopes: z.array(z.string()),
    logo_uri: z.string().nullable(),
    /** Whether a confidential client has a secret now; never the secret. */
    has_secret: z.boolean(),
    secret_rotated_at: isoDate.nullable(),
    /** Set: refused everywhere, its tokens dead. */
    disabled_at: isoDate.nullable(),
    /** People who have allowed it and not revoked it (grants alive). */
    grants: z.number().int(),
    created_at: isoDate,
    updated_at: isoDate,
  })
  .meta({ id: 'AdminOAuthClient' });
export type AdminOAuthClient = z.infer<typeof adminOAuthClient>;

const clientResponse = z.object({ client: adminOAuthClient });

/** The secret is in this answer only: it is kept sealed and never shown again. */
export const oauthClientWithSecretResponse = z.object({
  client: adminOAuthClient,
  /** Null for a public client, which has none. */
  secret: z.string().nullable(),
});
export type OAuthClientWithSecretResponse = z.infer<typeof oauthClientWithSecretResponse>;

export const OAUTH_CLIENT_SORTS = ['name', 'created_at'] as const;
export const OAUTH_CLIENT_STATUSES = ['active', 'disabled'] as const;

export const oauthClientsQuery = pagingQuery
  .merge(sortQuery(OAUTH_CLIENT_SORTS, 'created_at', 'desc'))
  .extend({
    search: searchFilter,
    type: z.enum(OAUTH_CLIENT_TYPES, invalid).optional(),
    status: z.enum(OAUTH_CLIENT_STATUSES, invalid).optional(),
  });
export type OAuthClientsQuery = z.infer<typeof oauthClientsQuery>;

const byClient = z.object({ client_id: oauthClientId });

const admin = {
  base: 'dashboard',
  access: { permission: 'oauth' },
  tag: 'oauth-clients',
} as const;

export const oauthClientEndpoints = {
  list: endpoint({
    ...admin,
    method: 'GET',
    path: '/oauth/clients',
    summary: 'OAuth clients: search by name or id, filter by type and status, a page at a time',
    query: oauthClientsQuery,
    response: listResponse(adminOAuthClient),
  }),
  view: endpoint({
    ...admin,
    method: 'GET',
    path: '/oauth/clients/view',
    summary: 'One OAuth client (whether it has a secret, never the secret)',
    query: byClient,
    response: clientResponse,
  }),
  create: endpoint({
    ...admin,
    method: 'POST',
    path: '/oauth/clients/create',
    summary: 'Add a client; a confidential one gets its secret, answered this once',
    body: oauthClientCreateRequest,
    response: oauthClientWithSecretResponse,
    status: 201,
  }),
  update: endpoint({
    ...admin,
    method: 'POST',
    path: '/oauth/clients/update',
    summary: "Change a client's name, redirect URIs, grants, scopes, logo or first-party flag",
    body: oauthClientUpdateRequest,
    response: clientResponse,
  }),
  rotateSecret: endpoint({
    ...admin,
    method: 'POST',
    path: '/oauth/clients/rotate-secret',
    summary: 'A new secret for a confidential client (the old stops at once); shown this once',
    body: byClient,
    response: oauthClientWithSecretResponse,
  }),
  revokeSecret: endpoint({
    ...admin,
    method: 'POST',
    path: '/oauth/clients/revoke-secret',
    summary: 'Remove a confidential client’s secret: it cannot authenticate until rotated',
    body: byClient,
    response: clientResponse,
  }),
  disable: endpoint({
    ...admin,
    method: 'POST',
    path: '/oauth/clients/disable',
    summary: 'Refuse a client everywhere and end every grant, code and token it holds',
    body: byClient,
    response: clientResponse,
  }),
  enable: endpoint({
    ...admin,
    method: 'POST',
    path: '/oauth/clients/enable',
    summary: 'Let a disabled client sign people in again (they must allow it anew)',
    body: byClient,
    response: clientResponse,
  }),
} as const;
