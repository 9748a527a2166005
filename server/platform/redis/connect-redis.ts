import { Redis } from 'ioredis';

export interface ConnectRedisOptions {
  /** Shown in `CLIENT LIST`, so an operator can tell the connections apart. */
  name: string;
  /** How long one command may take before it fails (a hung server must not hang requests). */
  commandTimeoutMs: number;
  /** Told about each failed (re)connection attempt; ioredis keeps retrying in the background. */
  onConnectionError?: (error: Error) => void;
}

/**
 * Opens one Redis connection for a part that degrades rather than waits: while Redis is down
 * a command fails at once instead of queueing (ioredis would otherwise hold it, and the
 * request with it, through twenty reconnection attempts); ioredis reconnects in the
 * background. Resolves once connected, so a wrong REDIS_URL stops start-up like a wrong
 * DATABASE_URL.
 */
export async function connectRedis(url: string, options: ConnectRedisOptions): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    connectTimeout: 5_000,
    commandTimeout: options.commandTimeoutMs,
    maxRetriesPerRequest: 1,
    connectionName: options.name,
  });
  redis.on('error', (error: Error) => options.onConnectionError?.(error));
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    // The URL may carry a password, so the message names the variable, not its value.
    throw new Error(`cannot connect to Redis at REDIS_URL: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return redis;
}

/** Closes politely when the connection is up, at once otherwise. */
export async function quitRedis(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  try {
    await redis.quit();
  } catch {
    // QUIT needs a live connection; without one there is nothing left to close politely.
    redis.disconnect();
  }
}
