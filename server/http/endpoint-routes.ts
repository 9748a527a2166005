import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { AVATAR_MAX_BYTES } from '#shared/contracts/account.ts';
import type {
  BodyOf,
  Endpoint,
  ParamsOf,
  QueryOf,
  ResponseOf,
} from '#shared/contracts/endpoint.ts';
import type { ActiveSession } from '../modules/identity/sessions.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The declaration the route was registered from (shared/contracts). */
    endpoint?: Endpoint;
  }
}

/** The signed-in session a handler gets: always there unless the endpoint is public. */
type AuthOf<E extends Endpoint> = E['access'] extends 'public' | 'own-signature' | 'node'
  ? ActiveSession | null
  : ActiveSession;

export interface HandlerContext<E extends Endpoint> {
  request: FastifyRequest;
  reply: FastifyReply;
  body: BodyOf<E>;
  query: QueryOf<E>;
  params: ParamsOf<E>;
  auth: AuthOf<E>;
}

/** A handler answers the declared response, or sends something else itself on `reply`. */
export type Handler<E extends Endpoint> = (
  context: HandlerContext<E>,
) => Promise<ResponseOf<E> | FastifyReply> | ResponseOf<E> | FastifyReply;

export interface RouteOptions {
  /**
   * A cross-site form POST by design (Apple's form_post callback): it cannot carry our CSRF
   * header, so it must change nothing on its own authority.
   */
  crossSitePost?: boolean;
  /** Runs in the route's own scope before it is added (a content-type parser, say). */
  scope?: (instance: FastifyInstance) => void;
}

/** One endpoint bound to its handler: what a module's routes list holds. */
export interface Route {
  endpoint: Endpoint;
  handler: Handler<Endpoint>;
  options: RouteOptions;
}

export function route<E extends Endpoint>(
  endpoint: E,
  handler: Handler<E>,
  options: RouteOptions = {},
): Route {
  return { endpoint, handler: handler as unknown as Handler<Endpoint>, options };
}

function schemaOf(endpoint: Endpoint): FastifySchema {
  const tag = endpoint.tag ?? endpoint.path.split('/')[1] ?? endpoint.base;
  const schema: FastifySchema & Record<string, unknown> = {
    tags: [`${endpoint.base} ${tag}`],
    summary: endpoint.summary,
    // The declared access, for whoever reads the OpenAPI document.
    description: `Access: ${describeAccess(endpoint)}.`,
  };
  if (endpoint.params) schema.params = endpoint.params;
  if (endpoint.query) schema.querystring = endpoint.query;
  if (endpoint.body) schema.body = endpoint.body;
  if (endpoint.multipart) schema.consumes = ['application/json', 'multipart/form-data'];
  if (endpoint.produces === 'text') schema.produces = ['text/plain'];
  if (endpoint.produces === 'file') schema.produces = ['application/pdf'];
  if (endpoint.produces === 'zip') schema.produces = ['application/zip'];
  if (endpoint.response) schema.response = { [endpoint.status ?? 200]: endpoint.response };
  return schema;
}

/**
 * Uploads are streamed and capped per route; these are the outer bounds of any. Only a route
 * declared `multipart` reads such a body (the plugin is registered in its scope alone, so its
 * two hooks do not run on every other request); elsewhere one is refused with 415.
 */
const MULTIPART_LIMITS = {
  fileSize: AVATAR_MAX_BYTES,
  files: 1,
  fields: 10,
  fieldSize: 1024,
  parts: 12,
};

/** The handler's answer as Fastify sends it, in the declared status. */
function finish(endpoint: Endpoint, reply: FastifyReply, answer: unknown): unknown {
  if (answer === reply) return reply;
  if (endpoint.status) reply.code(endpoint.status);
  return answer;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

function describeAccess({ access }: Endpoint): string {
  if (typeof access === 'string') return access;
  return `permission ${access.permission}${access.deactivated ? ' (deactivated too)' : ''}`;
}

/**
 * Registers a module's routes, each from its declaration: path under its base, validation,
 * response schema, OpenAPI entry, and its access (checked for every route by the auth
 * plugin, before the body is read).
 */
export async function registerRoutes(
  app: FastifyInstance,
  routes: readonly Route[],
  features: ReadonlySet<string>,
): Promise<void> {
  for (const { endpoint, handler, options } of routes) {
    // A switched-off feature's endpoints do not exist (§1): the API's 404 answers them.
    if (endpoint.feature && !features.has(endpoint.feature)) continue;
    // An app's token reaches the customer's own calls, never staff's or anyone else's.
    if (endpoint.appScope && endpoint.base !== 'account') {
      throw new Error(`${endpoint.url}: only account calls may be open to apps`);
    }
    const add = (instance: FastifyInstance) => {
      instance.route({
        method: endpoint.method,
        url: endpoint.url,
        schema: schemaOf(endpoint),
        config: { access: endpoint.access, endpoint, crossSitePost: options.crossSitePost },
        handler: (request, reply) => {
          const context = {
            request,
            reply,
            body: request.body,
            query: request.query,
            params: request.params,
            auth: request.auth,
          } as HandlerContext<Endpoint>;
          const answer = handler(context);
          // An answer given at once is sent without a promise of ours: with the request's log
          // context on, every promise costs each request (docs/operations/benchmarks.md).
          return isThenable(answer) || answer === undefined
            ? Promise.resolve(answer).then((value) => finish(endpoint, reply, value))
            : finish(endpoint, reply, answer);
        },
      });
    };
    if (options.scope || endpoint.multipart) {
      await app.register(async (instance) => {
        if (endpoint.multipart) await instance.register(multipart, { limits: MULTIPART_LIMITS });
        options.scope?.(instance);
        add(instance);
      });
    } else add(app);
  }
}

/**
 * Both declarations of an own-account call (shared/contracts/endpoint.ts
 * ownAccountEndpoint) bound to one handler: customers and staff are served alike.
 */
export function ownAccountRoutes<A extends Endpoint, D extends Endpoint>(
  twin: { account: A; dashboard: D },
  handler: Handler<A>,
  options: RouteOptions = {},
): Route[] {
  return [
    route(twin.account, handler, options),
    route(twin.dashboard, handler as unknown as Handler<D>, options),
  ];
}
