/**
 * The time billing runs on: the wall clock, plus an offset that only the sandbox's test
 * clock moves (never in production), so a test can pass a month of renewals and retries in
 * a second. Sessions, tokens and everything else keep the real time.
 */
export class BillingClock {
  #offsetMs = 0;
  readonly #listeners = new Set<(now: Date) => Promise<void>>();

  now(): Date {
    return new Date(Date.now() + this.#offsetMs);
  }

  /** Moves billing time forward, then lets the listeners (renewals, dunning) catch up. */
  async advance(ms: number): Promise<Date> {
    if (!Number.isFinite(ms) || ms < 0) throw new Error('the billing clock only moves forward');
    this.#offsetMs += ms;
    const now = this.now();
    for (const listener of this.#listeners) await listener(now);
    return now;
  }

  /** Work to run at once whenever the test clock moves (each runs in its turn). */
  onAdvance(listener: (now: Date) => Promise<void>): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
