import type { Redis } from 'ioredis';
import { connectRedis } from '../redis/connect-redis.ts';

export { quitRedis } from '../redis/connect-redis.ts';

/** Keys and pub/sub channels of the built-in realtime server, apart from the rate limiter's. */
export const REALTIME_REDIS_PREFIX = 'rt:';

/**
 * One connection of the realtime server. While Redis is away a subscription asks its client
 * to come back later and an event still reaches this process's own clients; ioredis
 * re-subscribes its channels when it reconnects.
 */
export function connectRealtimeRedis(
  url: string,
  role: 'commands' | 'subscriber',
  onConnectionError: (error: Error) => void,
): Promise<Redis> {
  return connectRedis(url, {
    name: `realtime-${role}`,
    commandTimeoutMs: 2_000,
    onConnectionError,
  });
}
