import type { z } from 'zod';
import { API_BASES, type ApiArea } from '../api-bases.ts';
import type { Feature } from '../features.ts';
import type { Permission } from '../permissions.ts';
import type { OidcApiScope } from './oidc.ts';

// One declaration per endpoint (DESIGN "Growing the house"): the server registers its route
// from it, the OpenAPI document is generated from it, and the browser's client is typed by
// it, so a renamed path or field breaks the type check instead of production. This file
// imports zod for types only: the browser's first bundle may name an endpoint's type.

/**
 * Who may call an endpoint. Nothing is open unless it says so: the server refuses to start
 * with a route that declares none.
 * - `public`: anyone, signed in or not.
 * - `signed-in`: a signed-in person (USER, ADMIN or AUTHOR), a deactivated one too.
 * - `active`: a signed-in person whose account is not deactivated (§4, §6).
 * - `verified`: an active person whose e-mail address is verified.
 * - `{ permission }`: staff with that named permission (shared/permissions.ts), not
 *   deactivated unless `deactivated: true`.
 * - `own-signature`: a machine caller that proves itself with a signature the route checks
 *   (the realtime events API, payment webhooks); no session ever opens it.
 * - `node`: a VPN node (role VPN_SERVER) with its bearer token, on the node base only; no
 *   person's session opens it, and the token opens nothing else.
 */
export type Access =
  | 'public'
  | 'signed-in'
  | 'active'
  | 'verified'
  | 'own-signature'
  | 'node'
  | { readonly permission: Permission; readonly deactivated?: true };

export type HttpMethod = 'GET' | 'POST';

export interface EndpointSpec {
  method: HttpMethod;
  /** §7 base the path is below. */
  base: ApiArea;
  /** Below the base, in Fastify syntax (`/oauth-client/authorize/:provider`). */
  path: string;
  access: Access;
  /** One line for the OpenAPI document. */
  summary: string;
  /** OpenAPI group; the first segment of the path by default. */
  tag?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The body may also be multipart/form-data (a file upload); the handler reads it. */
  multipart?: boolean;
  /** The success answer; none for a redirect. */
  response?: z.ZodType;
  /** Status of the success answer; 200 by default. */
  status?: 200 | 201;
  /**
   * JSON by default; `text` for a text file to save, `file` for a document the browser
   * opens or saves by its link (a PDF), `zip` for an archive the page saves, `redirect` for a
   * browser hop.
   */
  produces?: 'json' | 'text' | 'file' | 'zip' | 'redirect';
  /** The endpoint exists only while this §1 feature flag is on. */
  feature?: Feature;
  /**
   * An app of ours may call it with an access token from our OpenID provider that carries
   * this scope (issue 24), besides a signed-in browser. Account base only.
   */
  appScope?: OidcApiScope;
}

type BaseUrl<S extends EndpointSpec> = `${(typeof API_BASES)[S['base']]}${S['path']}`;

export type Endpoint<S extends EndpointSpec = EndpointSpec> = S & {
  /** The full path: base and path. */
  readonly url: BaseUrl<S>;
};

export function endpoint<const S extends EndpointSpec>(spec: S): Endpoint<S> {
  return { ...spec, url: `${API_BASES[spec.base]}${spec.path}` as BaseUrl<S> };
}

type InputOf<T> = T extends z.ZodType ? z.input<T> : never;
type OutputOf<T> = T extends z.ZodType ? z.output<T> : never;

/** What a caller sends: the body, query and path parameters the endpoint declares. */
export type EndpointInput<E extends EndpointSpec> = (E['body'] extends z.ZodType
  ? undefined extends InputOf<E['body']>
    ? { body?: InputOf<E['body']> }
    : { body: InputOf<E['body']> }
  : { body?: never }) &
  (E['query'] extends z.ZodType ? { query?: InputOf<E['query']> } : { query?: never }) &
  (E['params'] extends z.ZodType ? { params: InputOf<E['params']> } : { params?: never });

/** The body a caller sends. */
export type RequestBody<E extends EndpointSpec> = InputOf<E['body']>;

/** What the handler receives after validation. */
export type BodyOf<E extends EndpointSpec> = OutputOf<E['body']>;
export type QueryOf<E extends EndpointSpec> = OutputOf<E['query']>;
export type ParamsOf<E extends EndpointSpec> = OutputOf<E['params']>;

/** The success answer's shape. */
export type ResponseOf<E extends EndpointSpec> = E['response'] extends z.ZodType
  ? z.output<E['response']>
  : undefined;

/** The full path of an endpoint with its `:name` parameters filled in. */
export function endpointUrl(url: string, params: Record<string, string | number> = {}): string {
  return url.replace(/:([A-Za-z_]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} of ${url}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * An endpoint served on the account base for customers and on the dashboard base for staff
 * (§2 /admin/account): the same call, twice declared from one spec. Staff need the
 * `ownAccount` permission there; `deactivated` keeps a deactivated account's own calls
 * (reactivate, who am I) open on both bases.
 */
function withoutAppScope<S extends { appScope?: unknown }>(spec: S): Omit<S, 'appScope'> {
  const { appScope: _appScope, ...rest } = spec;
  return rest;
}

export function ownAccountEndpoint<const S extends Omit<EndpointSpec, 'base' | 'access'>>(
  spec: S,
  options: { deactivated?: true } = {},
) {
  const staffAccess = options.deactivated
    ? ({ permission: 'ownAccount', deactivated: true } as const)
    : ({ permission: 'ownAccount' } as const);
  return {
    account: endpoint({
      ...spec,
      base: 'account',
      access: options.deactivated ? 'signed-in' : 'active',
    } as const),
    // Staff's copy is never open to an app's token.
    dashboard: endpoint({
      ...withoutAppScope(spec),
      base: 'dashboard',
      access: staffAccess,
    } as const),
  };
}
