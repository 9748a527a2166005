import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COUPON_DURATIONS } from './billing-values.ts';
import {
  type CouponTerms,
  couponDiscount,
  monthlyRate,
  orderTotals,
  prorate,
  savingPercent,
} from './pricing.ts';

// The arithmetic money moves by, as properties over any amounts: never a negative total,
// never a fraction of a minor unit, never more discount than the price.

const amount = fc.integer({ min: 0, max: 100_000_000 });
const currency = fc.constantFrom('USD', 'EUR', 'RUB', 'JPY');
const coupon: fc.Arbitrary<CouponTerms> = fc.oneof(
  fc.record({
    percentOff: fc.integer({ min: -10, max: 120 }),
    amountOff: fc.constant(null),
    currency: fc.constant(null),
    duration: fc.constantFrom(...COUPON_DURATIONS),
    durationInMonths: fc.option(fc.integer({ min: 1, max: 36 })),
  }),
  fc.record({
    percentOff: fc.constant(null),
    amountOff: fc.integer({ min: -100, max: 200_000_000 }),
    currency,
    duration: fc.constantFrom(...COUPON_DURATIONS),
    durationInMonths: fc.option(fc.integer({ min: 1, max: 36 })),
  }),
);

describe('order totals', () => {
  it('never go below zero, never discount more than the subtotal, stay whole minor units', () => {
    fc.assert(
      fc.property(
        fc.array(amount, { maxLength: 5 }),
        currency,
        fc.option(coupon),
        (amounts, cur, terms) => {
          const lines = amounts.map((value, index) => ({
            productId: index,
            description: '',
            amount: value,
          }));
          const totals = orderTotals(lines, cur, terms);
          expect(totals.total).toBeGreaterThanOrEqual(0);
          expect(totals.discount).toBeGreaterThanOrEqual(0);
          expect(totals.discount).toBeLessThanOrEqual(totals.subtotal);
          expect(totals.total).toBe(totals.subtotal - totals.discount + totals.tax);
          for (const value of Object.values(totals)) expect(Number.isInteger(value)).toBe(true);
        },
      ),
    );
  });

  it('takes a fixed amount off only in its own currency', () => {
    const terms: CouponTerms = {
      percentOff: null,
      amountOff: 500,
      currency: 'EUR',
      duration: 'once',
      durationInMonths: null,
    };
    expect(couponDiscount(terms, 1299, 'EUR')).toBe(500);
    expect(couponDiscount(terms, 1299, 'USD')).toBe(0);
    expect(couponDiscount(terms, 300, 'EUR')).toBe(300);
  });

  it('rounds a percentage to the minor unit, half up', () => {
    const terms: CouponTerms = {
      percentOff: 15,
      amountOff: null,
      currency: null,
      duration: 'forever',
      durationInMonths: null,
    };
    expect(couponDiscount(terms, 1299, 'USD')).toBe(195); // 194.85
    expect(couponDiscount(terms, 10, 'USD')).toBe(2); // 1.5
  });
});

describe('proration', () => {
  const period = fc
    .tuple(
      fc.integer({ min: 0, max: 4_000_000_000_000 }),
      fc.integer({ min: 1, max: 400 * 86_400_000 }),
    )
    .map(([start, length]) => ({ start: new Date(start), end: new Date(start + length) }));

  it('credits and charges at most a whole period, and charges the difference or nothing', () => {
    fc.assert(
      fc.property(
        amount,
        amount,
        period,
        fc.double({ min: -0.5, max: 1.5, noNaN: true }),
        (current, next, p, at) => {
          const moment = new Date(p.start.getTime() + (p.end.getTime() - p.start.getTime()) * at);
          const result = prorate({
            currentAmount: current,
            newAmount: next,
            periodStart: p.start,
            periodEnd: p.end,
            at: moment,
          });
          expect(result.credit).toBeGreaterThanOrEqual(0);
          expect(result.credit).toBeLessThanOrEqual(current);
          expect(result.charge).toBeLessThanOrEqual(next);
          expect(result.due).toBe(Math.max(result.charge - result.credit, 0));
          for (const value of Object.values(result)) expect(Number.isInteger(value)).toBe(true);
        },
      ),
    );
  });

  it('halfway through a month from 10.00 to 20.00 charges 5.00 now', () => {
    const start = new Date('2026-11-01T00:00:00Z');
    const end = new Date('2026-12-01T00:00:00Z');
    const at = new Date((start.getTime() + end.getTime()) / 2);
    expect(
      prorate({ currentAmount: 1000, newAmount: 2000, periodStart: start, periodEnd: end, at }),
    ).toEqual({
      credit: 500,
      charge: 1000,
      due: 500,
    });
  });
});

describe('display figures', () => {
  it('shows a yearly plan as its monthly rate and its saving in whole percent', () => {
    expect(monthlyRate(7188, 'year', 1)).toBe(599);
    expect(monthlyRate(10_776, 'year', 2)).toBe(449);
    expect(savingPercent(7188, 15_588)).toBe(54);
    expect(savingPercent(1299, null)).toBe(0);
  });
});
