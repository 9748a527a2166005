import { describe, expect, it } from 'vitest';
import { Backoff } from './backoff.ts';

describe('Backoff', () => {
  it.each([
    { name: 'at most', random: 1, waits: [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000] },
    { name: 'at least', random: 0, waits: [500, 1_000, 2_000, 4_000, 8_000, 15_000, 15_000] },
  ])('doubles from 1 s to 30 s, each wait $name the full step', ({ random, waits }) => {
    const backoff = new Backoff({ firstMs: 1_000, maxMs: 30_000 }, () => random);
    expect(waits.map(() => backoff.next())).toEqual(waits);
  });

  it('starts again from the first step after a reset', () => {
    const backoff = new Backoff({ firstMs: 1_000, maxMs: 30_000 }, () => 1);
    expect(backoff.failing).toBe(false);
    for (let i = 0; i < 100; i += 1) backoff.next();
    expect(backoff.next()).toBe(30_000);
    expect(backoff.failing).toBe(true);
    backoff.reset();
    expect(backoff.failing).toBe(false);
    expect(backoff.next()).toBe(1_000);
  });
});
