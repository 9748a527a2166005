import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Access } from '#shared/contracts/endpoint.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (shared/contracts/endpoint.ts); every route must say. */
    access?: Access;
  }
  interface FastifyInstance {
    /** Every route the app serves, with its declared access: what the matrix test calls. */
    routeList: readonly RegisteredRoute[];
  }
}

export interface RegisteredRoute {
  method: string;
  url: string;
  access: Access;
  config: RouteOptions['config'];
}

/**
 * Marks every route added in `scope` (a plugin's own routes, a file server's) as public,
 * unless it declares an access of its own.
 */
export function publicRoutes(scope: FastifyInstance): void {
  scope.addHook('onRoute', (options) => {
    if (!options.config?.access) options.config = { ...options.config, access: 'public' };
  });
}

/**
 * Access is denied by default: a route that does not declare who may call it stops the app
 * at start-up. Checked once every route is in, so a plugin's own onRoute hook may fill it in.
 */
export const routeAccess = fp(
  async (app: FastifyInstance) => {
    const seen: RouteOptions[] = [];
    const list: RegisteredRoute[] = [];
    app.decorate('routeList', list);
    app.addHook('onRoute', (options) => {
      seen.push(options);
    });
    app.addHook('onReady', async () => {
      const undeclared: string[] = [];
      for (const options of seen) {
        const access = options.config?.access;
        for (const method of [options.method].flat()) {
          if (access) list.push({ method, url: options.url, access, config: options.config });
          else undeclared.push(`${method} ${options.url}`);
        }
      }
      if (undeclared.length > 0) {
        throw new Error(`Routes without declared access: ${undeclared.join(', ')}`);
      }
    });
  },
  { name: 'route-access' },
);
