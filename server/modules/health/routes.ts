import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponse, readinessResponse } from '#shared/contracts/health.ts';
import { pingDatabase } from '../../db/client.ts';

// Liveness answers without touching anything; readiness checks the database so a load
// balancer stops sending traffic to a process that cannot reach it.
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    { schema: { tags: ['health'], response: { 200: healthResponse } }, logLevel: 'warn' },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: { tags: ['health'], response: { 200: readinessResponse, 503: readinessResponse } },
      logLevel: 'warn',
    },
    async (_request, reply) => {
      const up = await pingDatabase(app.db);
      return reply
        .code(up ? 200 : 503)
        .send({ status: up ? 'ok' : 'unavailable', database: up ? 'up' : 'down' });
    },
  );
};
