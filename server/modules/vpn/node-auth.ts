import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { vpnServers } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { hashNodeToken } from './node-tokens.ts';

/** The VPN node (role VPN_SERVER) a node call comes from. */
export interface NodeCaller {
  serverId: number;
  /** Removed by staff: it may still learn that its peers are gone, nothing else. */
  retired: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The node whose bearer token the call carries; null on every other route. */
    vpnNode: NodeCaller | null;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_-]{16,128})$/;

/** Every node call runs it: built once (drizzle's query building costs more than the query). */
function prepareNodeOf(db: Database) {
  return db
    .select({ id: vpnServers.id, retiredAt: vpnServers.retiredAt })
    .from(vpnServers)
    .where(eq(vpnServers.tokenHash, sql.placeholder('hash')))
    .prepare('');
}

const nodeQueries = new WeakMap<Database, ReturnType<typeof prepareNodeOf>>();

/**
 * Tokens looked up in the last second, by hash: a node polls and reports all the time, and a
 * query per call was a third of a report's round trips. Staff's rotation or removal empties
 * it in this process at once (forgetNodeTokens); another process believes an old token for at
 * most this long more.
 */
const TOKEN_CACHE_MS = 1_000;
const known = new WeakMap<Database, Map<string, { node: NodeCaller; until: number }>>();

async function nodeOf(db: Database, token: string): Promise<NodeCaller | null> {
  const hash = hashNodeToken(token);
  let cache = known.get(db);
  if (!cache) {
    cache = new Map();
    known.set(db, cache);
  }
  const now = Date.now();
  const hit = cache.get(hash);
  if (hit && hit.until > now) return hit.node;
  let query = nodeQueries.get(db);
  if (!query) {
    query = prepareNodeOf(db);
    nodeQueries.set(db, query);
  }
  const [server] = await query.execute({ hash });
  if (!server) {
    cache.delete(hash);
    return null;
  }
  const node = { serverId: server.id, retired: server.retiredAt !== null };
  // Old entries go as new ones come, so the map stays the size of the fleet.
  if (cache.size > 10_000)
    for (const [key, entry] of cache) if (entry.until <= now) cache.delete(key);
  cache.set(hash, { node, until: now + TOKEN_CACHE_MS });
  return node;
}

/** Staff rotated a token or removed a server: no call is let in on what this process knew. */
export function forgetNodeTokens(db: Database): void {
  known.get(db)?.clear();
}

/**
 * The gate of the node API (access `node`): the bearer token names the server, or the call
 * is refused, 401 for a caller with nothing, 403 for a signed-in person (a session never
 * opens a node route). Runs after the auth plugin's hook, which let these routes through
 * to it; the token is read from no other route.
 */
export function installNodeAuth(app: FastifyInstance): void {
  app.decorateRequest('vpnNode', null);
  const admit = async (request: FastifyRequest) => {
    const match = BEARER.exec(request.headers.authorization ?? '');
    const node = match?.[1] ? await nodeOf(app.db, match[1]) : null;
    if (!node) throw new AppError(request.auth ? 'forbidden' : 'unauthenticated');
    request.vpnNode = node;
  };
  // Every request meets this hook; any but a node's passes at once, without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.routeOptions.config?.access !== 'node') return done();
    admit(request).then(() => done(), done);
  });
}

/** The node of a node call: the gate above has set it. */
export function nodeOfRequest(request: FastifyRequest): NodeCaller {
  if (!request.vpnNode) throw new AppError('unauthenticated');
  return request.vpnNode;
}

/** A live (not retired) server row by id, for writes on behalf of its node. */
export function liveServer(serverId: number) {
  return and(eq(vpnServers.id, serverId), isNull(vpnServers.retiredAt));
}
