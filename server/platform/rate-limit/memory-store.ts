import type { RateLimitHit, RateLimitStore } from './store.ts';

export interface MemoryStoreOptions {
  /** How often expired windows are dropped; hits also ignore them, this only frees memory. */
  sweepIntervalMs?: number;
  /**
   * Most keys held at once. Keys are attacker-chosen (addresses, e-mails), so without a cap a
   * flood of distinct keys within one window would grow the map without bound; when full, the
   * oldest window is forgotten, which costs at most a too-early reset for that key.
   */
  maxKeys?: number;
}

/** Counters in this process only: the single-node default when REDIS_URL is unset. */
export class MemoryRateLimitStore implements RateLimitStore {
  // A Map iterates in insertion order and a new window is always (re)inserted, so the first
  // entry is the window opened longest ago: the one to evict.
  private readonly windows = new Map<string, RateLimitHit>();
  private readonly maxKeys: number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(options: MemoryStoreOptions = {}) {
    this.maxKeys = options.maxKeys ?? 100_000;
    this.sweeper = setInterval(() => this.sweep(), options.sweepIntervalMs ?? 60_000);
    // The sweep must not keep a process (or a test worker) alive on its own.
    this.sweeper.unref();
  }

  get size(): number {
    return this.windows.size;
  }

  async hit(key: string, windowMs: number): Promise<RateLimitHit> {
    const now = Date.now();
    const current = this.windows.get(key);
    if (current && current.resetAt > now) {
      current.count += 1;
      return { ...current };
    }
    this.windows.delete(key);
    if (this.windows.size >= this.maxKeys) this.evictOldest();
    const opened = { count: 1, resetAt: now + windowMs };
    this.windows.set(key, opened);
    return { ...opened };
  }

  async peek(key: string): Promise<RateLimitHit | undefined> {
    const current = this.windows.get(key);
    // A window whose hits were all undone counts as none, as in Redis.
    return current && current.resetAt > Date.now() && current.count > 0
      ? { ...current }
      : undefined;
  }

  async undo(key: string): Promise<void> {
    const current = this.windows.get(key);
    if (current && current.resetAt > Date.now() && current.count > 0) current.count -= 1;
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.windows.clear();
  }

  /** Drops every window that has ended. */
  sweep(now = Date.now()): void {
    // Windows differ in length, so insertion order is not expiry order: check them all.
    for (const [key, window] of this.windows) {
      if (window.resetAt <= now) this.windows.delete(key);
    }
  }

  private evictOldest(): void {
    const oldest = this.windows.keys().next();
    if (!oldest.done) this.windows.delete(oldest.value);
  }
}
