import { describe, expect, it } from 'vitest';
import { calendarMonth, usagePeriod } from './usage-period.ts';

const d = (text: string) => new Date(text);

describe('usagePeriod', () => {
  it('is the subscription’s period while it holds the moment', () => {
    const period = { start: d('2026-11-14T09:30:00Z'), end: d('2026-12-14T09:30:00Z') };
    expect(usagePeriod(d('2026-11-27T00:00:00Z'), period)).toBe(period);
    expect(usagePeriod(d('2026-11-14T09:30:00Z'), period)).toBe(period);
  });

  it('is the calendar month without one, or once it has lapsed', () => {
    const month = { start: d('2026-12-01T00:00:00Z'), end: d('2027-01-01T00:00:00Z') };
    expect(usagePeriod(d('2026-12-20T00:00:00Z'), null)).toEqual(month);
    const lapsed = { start: d('2026-11-14T09:30:00Z'), end: d('2026-12-14T09:30:00Z') };
    expect(usagePeriod(d('2026-12-20T00:00:00Z'), lapsed)).toEqual(month);
  });

  it('rolls over at midnight UTC at the end of the year', () => {
    expect(calendarMonth(d('2026-12-31T23:59:59Z')).end).toEqual(d('2027-01-01T00:00:00Z'));
    expect(calendarMonth(d('2027-01-01T00:00:00Z')).start).toEqual(d('2027-01-01T00:00:00Z'));
  });
});
