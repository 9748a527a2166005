/** The state of one key's window after a hit. */
export interface RateLimitHit {
  /** Hits in the current window, this one included. */
  count: number;
  /** When the current window ends, in epoch milliseconds of this process's clock. */
  resetAt: number;
}

/**
 * Counters of hits per key in fixed windows: the first hit on a key opens a window of
 * `windowMs`, later hits count into it, and the key starts from zero once it ends. A fixed
 * window needs one counter and one expiry per key, is a single atomic step in Redis, and
 * its known weakness (up to twice the limit across a window boundary) does not matter for
 * brute-force limits of a few attempts per quarter hour.
 */
export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<RateLimitHit>;
  /** The key's current window without counting, or undefined when it has none. */
  peek(key: string): Promise<RateLimitHit | undefined>;
  /**
   * Takes one hit back from the key's live window (a reserved attempt that turned out not to
   * count); nothing when the key has no live window or no hits left, so a count never goes
   * below zero, even when the window ended between the hit and its undoing.
   */
  undo(key: string): Promise<void>;
  /** Forgets the key, so its next hit opens a new window. */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}
