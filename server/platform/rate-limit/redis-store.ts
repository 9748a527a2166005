import type { Redis } from 'ioredis';
import type { RateLimitHit, RateLimitStore } from './store.ts';

export const REDIS_KEY_PREFIX = 'rl:';

/**
 * The limiter fails open: a hung Redis costs a request half a second at most, then the
 * attempt is let through (rate-limiter.ts).
 */
export const RATE_LIMIT_REDIS = { name: 'rate-limit', commandTimeoutMs: 500 } as const;

// Undoing a hit must read and write in one step: a DECR alone on a key whose window just
// ended would create it again without an expiry, or take a count below zero.
const UNDO_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 and redis.call('PTTL', KEYS[1]) > 0 then
  return redis.call('DECR', KEYS[1])
end
return count
`;

/**
 * Counters shared by every API process through Redis, one key per window: `SET NX PX` opens
 * the window with its expiry, `INCR` counts (keeping the expiry), `PTTL` says when it ends,
 * all in one MULTI, so a hit is one atomic round trip. SET NX PX rather than `PEXPIRE … NX`
 * keeps us working on Redis 6 and its managed and Valkey look-alikes.
 */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = REDIS_KEY_PREFIX,
  ) {}

  async hit(key: string, windowMs: number): Promise<RateLimitHit> {
    const name = this.prefix + key;
    // PX takes whole milliseconds only; a fraction would fail every hit.
    const windowPx = Math.max(1, Math.ceil(windowMs));
    const replies = await this.redis
      .multi()
      .set(name, 0, 'PX', windowPx, 'NX')
      .incr(name)
      .pttl(name)
      .exec();
    if (!replies) throw new Error('rate-limit transaction was discarded');
    for (const [error] of replies) if (error) throw error;
    const count = Number(replies[1]?.[1]);
    let ttl = Number(replies[2]?.[1]);
    if (ttl < 0) {
      // A counter without an expiry (written by hand, or by an older release) would lock its
      // key out for good; give it one window.
      await this.redis.pexpire(name, windowPx);
      ttl = windowPx;
    }
    // The server's PTTL read against our clock, so processes whose clocks disagree still
    // agree on how long is left.
    return { count, resetAt: Date.now() + ttl };
  }

  async peek(key: string): Promise<RateLimitHit | undefined> {
    const name = this.prefix + key;
    const replies = await this.redis.multi().get(name).pttl(name).exec();
    if (!replies) throw new Error('rate-limit transaction was discarded');
    for (const [error] of replies) if (error) throw error;
    const count = Number(replies[0]?.[1] ?? 0);
    const ttl = Number(replies[1]?.[1]);
    return count > 0 && ttl > 0 ? { count, resetAt: Date.now() + ttl } : undefined;
  }

  async undo(key: string): Promise<void> {
    await this.redis.eval(UNDO_SCRIPT, 1, this.prefix + key);
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async close(): Promise<void> {
    if (this.redis.status === 'end') return;
    try {
      await this.redis.quit();
    } catch {
      // QUIT needs a live connection; without one there is nothing left to close politely.
      this.redis.disconnect();
    }
  }
}
