import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fullExpiryYear, isCardExpired } from './card-expiry.ts';

const at = (iso: string) => new Date(iso);

describe('isCardExpired', () => {
  // Mid-December 2027: the 12/2027 card is already "expired" under §5's literal rule.
  const now = at('2027-12-15T12:00:00Z');

  it.each<[string, number | string, number | string, boolean]>([
    ['a month in the past', 11, 2027, true],
    ['the current month (its first day is earlier than now)', 12, 2027, true],
    ['next month', 1, 2028, false],
    ['a later year', 6, 2030, false],
    ['a past year', 12, 2026, true],
    ['two-digit year, next month', 1, 28, false],
    ['two-digit year, current month', 12, 27, true],
    ['digit strings', '01', '2028', false],
    ['digit strings, two-digit year', '1', '28', false],
    ['month 0', 0, 2030, true],
    ['month 13', 13, 2030, true],
    ['fractional month', 1.5, 2030, true],
    ['month not a number', 'ab', 2030, true],
    ['year not a number', 1, 'soon', true],
    ['three-digit year', 1, 203, true],
    ['negative year', 1, -1, true],
    ['NaN month', Number.NaN, 2030, true],
  ])('%s: %s/%s', (_, month, year, expected) => {
    expect(isCardExpired(month, year, now)).toBe(expected);
  });

  it.each<[string, string, boolean]>([
    ['the day before the month starts', '2027-11-30T23:59:59.999Z', false],
    ['the first instant of the month (not earlier than now)', '2027-12-01T00:00:00.000Z', false],
    ['one millisecond into the month', '2027-12-01T00:00:00.001Z', true],
    ['the last day of the month', '2027-12-31T23:59:59.999Z', true],
  ])('12/2027 at %s', (_, instant, expected) => {
    expect(isCardExpired(12, 2027, at(instant))).toBe(expected);
  });

  it('turns at midnight UTC whatever the month, across year ends', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 2000, max: 2199 }), (m, y) => {
        const start = Date.UTC(y, m - 1, 1);
        expect(isCardExpired(m, y, new Date(start - 1))).toBe(false);
        expect(isCardExpired(m, y, new Date(start))).toBe(false);
        expect(isCardExpired(m, y, new Date(start + 1))).toBe(true);
        if (y < 2100) {
          expect(isCardExpired(m, y % 100, new Date(start))).toBe(false);
          expect(isCardExpired(m, y % 100, new Date(start + 1))).toBe(true);
        }
      }),
    );
  });

  it('never becomes unexpired as time passes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 2100 }),
        fc.date({
          min: at('1990-01-01T00:00:00Z'),
          max: at('2200-01-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.nat(),
        (m, y, t, later) => {
          const after = new Date(t.getTime() + later);
          if (isCardExpired(m, y, t)) expect(isCardExpired(m, y, after)).toBe(true);
        },
      ),
    );
  });

  it('uses the current time by default', () => {
    expect(isCardExpired(1, 2000)).toBe(true);
    expect(isCardExpired(12, 2999)).toBe(false);
  });
});

describe('fullExpiryYear', () => {
  it.each<[number | string, number]>([
    [27, 2027],
    [0, 2000],
    [99, 2099],
    [2027, 2027],
    ['27', 2027],
    ['2031', 2031],
  ])('%j → %d', (year, expected) => {
    expect(fullExpiryYear(year)).toBe(expected);
  });
});
