/**
 * A token bucket: `size` tokens at most, refilled at `perSecond`. Each taken token is one
 * thing done; an empty bucket says no. Kept per socket, so it holds two numbers and reads
 * the clock only when asked.
 */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly size: number,
    private readonly perSecond: number,
    now = Date.now(),
  ) {
    this.tokens = size;
    this.updatedAt = now;
  }

  /** Takes one token if there is one. */
  take(now = Date.now()): boolean {
    const elapsed = Math.max(0, now - this.updatedAt);
    this.updatedAt = now;
    this.tokens = Math.min(this.size, this.tokens + (elapsed * this.perSecond) / 1000);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
