import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { Mailer } from '../platform/mail/mailer.ts';
import type { RateLimiter } from '../platform/rate-limit/rate-limiter.ts';

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** Set at SIGTERM (server/main.ts): /readyz fails so the load balancer stops sending. */
    draining: boolean;
    db: Database;
    mailer: Mailer;
    rateLimiter: RateLimiter;
  }
}
