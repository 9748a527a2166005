import type { FastifyRequest } from 'fastify';

/** What a request that matched no route (a 404, the web app's history fallback) is filed under. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The route a request matched, as declared (`/api/account/v1/vpn/devices/:id`), never the
 * path it came with: log lines and metric labels name the endpoint, not the ids, addresses or
 * tokens a path or query may carry, and metrics stay one series per route.
 */
export function routePattern(request: FastifyRequest): string {
  return request.routeOptions.url ?? UNMATCHED_ROUTE;
}
