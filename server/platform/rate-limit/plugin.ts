import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { connectRedis } from '../redis/connect-redis.ts';
import { MemoryRateLimitStore } from './memory-store.ts';
import { RateLimiter } from './rate-limiter.ts';
import { RATE_LIMIT_REDIS, RedisRateLimitStore } from './redis-store.ts';
import type { RateLimitStore } from './store.ts';

export interface RateLimitPluginOptions {
  /** A store the caller owns (tests); the plugin then leaves it open. */
  store?: RateLimitStore | undefined;
}

// Decorates the app with `rateLimiter`. With REDIS_URL the counters live in Redis, so every
// API process behind the load balancer counts the same attempts; without it they live in
// this process, which is right for the single-node default. The store closes with the app.
export const rateLimitPlugin = fp<RateLimitPluginOptions>(
  async (app: FastifyInstance, options) => {
    let store = options.store;
    if (!store) {
      const { redisUrl } = app.config;
      const opened: RateLimitStore = redisUrl
        ? new RedisRateLimitStore(
            await connectRedis(redisUrl, {
              ...RATE_LIMIT_REDIS,
              onConnectionError: (error) =>
                app.log.warn({ err: error }, 'rate-limit Redis connection failed'),
            }),
          )
        : new MemoryRateLimitStore();
      store = opened;
      app.addHook('onClose', () => opened.close());
    }
    app.decorate('rateLimiter', new RateLimiter(store, app.log, app.config.rateLimitScale));
  },
  { name: 'rate-limit' },
);
