import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  healthResponse,
  readinessResponse,
  readinessUnavailableResponse,
} from '#shared/contracts/health.ts';
import { pingDatabase } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';

/**
 * A load balancer's check has its own time limit (often 2–5 s): a slow answer must be our
 * 503, not its timeout, so the process is marked down for the right reason and at once.
 */
export const READINESS_TIMEOUT_MS = 2_000;

// Liveness answers without touching anything; readiness checks the database so a load
// balancer stops sending traffic to a process that cannot reach it.
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    {
      schema: { tags: ['health'], response: { 200: healthResponse } },
      config: { access: 'public' },
      logLevel: 'warn',
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        response: { 200: readinessResponse, 503: readinessUnavailableResponse },
      },
      config: { access: 'public' },
      logLevel: 'warn',
    },
    async (_request, reply) => {
      // Draining before a shutdown: out of the load balancer first, then stop listening.
      if (app.draining) throw new AppError('unavailable');
      const up = await pingDatabase(app.db, READINESS_TIMEOUT_MS);
      return reply
        .code(up ? 200 : 503)
        .send({ status: up ? 'ok' : 'unavailable', database: up ? 'up' : 'down' });
    },
  );
};
