export interface BackoffOptions {
  firstMs: number;
  maxMs: number;
}

/**
 * Waits between failed tries: doubling from `firstMs` up to `maxMs`, each a random time
 * between half and all of that, so a fleet of nodes cut off together does not come back to
 * the API in step.
 */
export class Backoff {
  private failures = 0;

  constructor(
    private readonly options: BackoffOptions,
    private readonly random: () => number = Math.random,
  ) {}

  /** True after a failure, until `reset`. */
  get failing(): boolean {
    return this.failures > 0;
  }

  next(): number {
    const full = Math.min(this.options.maxMs, this.options.firstMs * 2 ** this.failures);
    this.failures += 1;
    return full / 2 + (this.random() * full) / 2;
  }

  reset(): void {
    this.failures = 0;
  }
}
