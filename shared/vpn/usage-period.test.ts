import { describe, expect, it } from 'vitest';
import { addMonths, calendarMonth, usagePeriod } from './usage-period.ts';

const d = (text: string) => new Date(text);

describe('usagePeriod', () => {
  it('is a monthly plan’s billing period, resetting on the renewal date', () => {
    const period = { start: d('2026-11-14T09:30:00Z'), end: d('2026-12-14T09:30:00Z') };
    expect(usagePeriod(d('2026-11-27T00:00:00Z'), period)).toEqual(period);
    expect(usagePeriod(d('2026-11-14T09:30:00Z'), period)).toEqual(period);
  });

  it('resets a yearly plan’s count on its renewal day each month, the last window ending with it', () => {
    const year = { start: d('2026-01-31T12:00:00Z'), end: d('2027-01-31T12:00:00Z') };
    expect(usagePeriod(d('2026-03-15T00:00:00Z'), year)).toEqual({
      start: d('2026-02-28T12:00:00Z'),
      end: d('2026-03-31T12:00:00Z'),
    });
    expect(usagePeriod(d('2026-03-31T12:00:00Z'), year).start).toEqual(d('2026-03-31T12:00:00Z'));
    expect(usagePeriod(d('2027-01-20T00:00:00Z'), year)).toEqual({
      start: d('2026-12-31T12:00:00Z'),
      end: d('2027-01-31T12:00:00Z'),
    });
  });

  it('is the calendar month without a subscription, or once it has lapsed', () => {
    const month = { start: d('2026-12-01T00:00:00Z'), end: d('2027-01-01T00:00:00Z') };
    expect(usagePeriod(d('2026-12-20T00:00:00Z'), null)).toEqual(month);
    const lapsed = { start: d('2026-11-14T09:30:00Z'), end: d('2026-12-14T09:30:00Z') };
    expect(usagePeriod(d('2026-12-20T00:00:00Z'), lapsed)).toEqual(month);
  });

  it('rolls over at midnight UTC at the end of the year', () => {
    expect(calendarMonth(d('2026-12-31T23:59:59Z')).end).toEqual(d('2027-01-01T00:00:00Z'));
    expect(calendarMonth(d('2027-01-01T00:00:00Z')).start).toEqual(d('2027-01-01T00:00:00Z'));
  });

  it.each([
    ['2026-01-31T00:00:00Z', 1, '2026-02-28T00:00:00Z'],
    ['2028-01-31T00:00:00Z', 1, '2028-02-29T00:00:00Z'],
    ['2026-05-15T08:00:00Z', 12, '2027-05-15T08:00:00Z'],
    ['2026-12-31T00:00:00Z', 2, '2027-02-28T00:00:00Z'],
  ])('addMonths(%s, %i) is %s', (from, months, expected) => {
    expect(addMonths(d(from), months)).toEqual(d(expected));
  });
});
