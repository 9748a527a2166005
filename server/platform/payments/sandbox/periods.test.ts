import { describe, expect, it } from 'vitest';
import { addIntervals, periodEndAfter } from './periods.ts';

describe('billing periods', () => {
  it('keeps the day of the month, clamped to short months, without drifting', () => {
    const anchor = new Date('2026-01-31T10:00:00Z');
    expect(addIntervals(anchor, 'month', 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addIntervals(anchor, 'month', 2).toISOString()).toBe('2026-03-31T10:00:00.000Z');
    expect(addIntervals(anchor, 'year', 1).toISOString()).toBe('2027-01-31T10:00:00.000Z');
    const leap = new Date('2028-02-29T00:00:00Z');
    expect(addIntervals(leap, 'year', 1).toISOString()).toBe('2029-02-28T00:00:00.000Z');
  });

  it('counts days, weeks and several intervals at once', () => {
    const anchor = new Date('2026-01-01T00:00:00Z');
    expect(periodEndAfter(anchor, anchor, 'day', 1).toISOString()).toBe('2026-01-02T00:00:00.000Z');
    expect(periodEndAfter(anchor, anchor, 'week', 2).toISOString()).toBe(
      '2026-01-15T00:00:00.000Z',
    );
    const march = new Date('2026-03-01T00:00:00Z');
    expect(periodEndAfter(anchor, march, 'month', 3).toISOString()).toBe(
      '2026-04-01T00:00:00.000Z',
    );
  });
});
