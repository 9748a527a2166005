import type { CouponDuration } from './billing-values.ts';

// The money arithmetic of an order and of a plan change, in integer minor units: the server
// charges by it and the order page shows the same figures. Never a negative total, never a
// fraction of a minor unit (amounts round half up, away from the customer's disadvantage
// only by the half unit a percentage can leave).

export interface CouponTerms {
  percentOff: number | null;
  amountOff: number | null;
  /** The currency of amountOff; a fixed amount applies only to orders in it. */
  currency: string | null;
  duration: CouponDuration;
  durationInMonths: number | null;
}

/** The discount a coupon gives on `subtotal` minor units of `currency`: 0…subtotal. */
export function couponDiscount(coupon: CouponTerms, subtotal: number, currency: string): number {
  if (subtotal <= 0) return 0;
  if (coupon.percentOff !== null) {
    const percent = Math.min(Math.max(coupon.percentOff, 0), 100);
    return Math.min(subtotal, Math.round((subtotal * percent) / 100));
  }
  if (coupon.amountOff !== null && coupon.currency === currency) {
    return Math.min(subtotal, Math.max(coupon.amountOff, 0));
  }
  return 0;
}

/**
 * How many invoices a coupon discounts from the first one: 1 for `once`, the months for
 * `repeating` (a yearly plan's first invoice counts once), null for `forever`.
 */
export function discountedPeriods(coupon: CouponTerms): number | null {
  if (coupon.duration === 'once') return 1;
  if (coupon.duration === 'repeating') return Math.max(coupon.durationInMonths ?? 1, 1);
  return null;
}

export interface OrderLineInput {
  productId: number;
  description: string;
  amount: number;
}

export interface OrderTotals {
  subtotal: number;
  discount: number;
  tax: number;
  total: number;
}

/** Subtotal, discount, tax and total of an order's lines (tax is not charged yet: 0). */
export function orderTotals(
  lines: readonly OrderLineInput[],
  currency: string,
  coupon: CouponTerms | null,
): OrderTotals {
  const subtotal = lines.reduce((sum, line) => sum + Math.max(line.amount, 0), 0);
  const discount = coupon ? couponDiscount(coupon, subtotal, currency) : 0;
  const tax = 0;
  return { subtotal, discount, tax, total: Math.max(subtotal - discount + tax, 0) };
}

export interface ProrationInput {
  /** What the current period costs on the current plan, after any discount. */
  currentAmount: number;
  /** What a full period costs on the new plan, after any discount. */
  newAmount: number;
  periodStart: Date;
  periodEnd: Date;
  /** When the change takes effect. */
  at: Date;
}

export interface Proration {
  /** The unused part of the current period, given back (≥ 0). */
  credit: number;
  /** The rest of the current period on the new plan (≥ 0). */
  charge: number;
  /** What is due now: charge minus credit, never below 0 (a surplus is not paid out). */
  due: number;
}

/**
 * A plan change mid-period: the unused time of the current plan is credited, the rest of
 * the period on the new plan is charged, both by the exact fraction of the period left.
 */
export function prorate(input: ProrationInput): Proration {
  const length = input.periodEnd.getTime() - input.periodStart.getTime();
  const left = Math.min(Math.max(input.periodEnd.getTime() - input.at.getTime(), 0), length);
  const fraction = length > 0 ? left / length : 0;
  const credit = Math.round(Math.max(input.currentAmount, 0) * fraction);
  const charge = Math.round(Math.max(input.newAmount, 0) * fraction);
  return { credit, charge, due: Math.max(charge - credit, 0) };
}

/** What one month of a plan costs, for §3 as_monthly_rate (rounded to the minor unit). */
export function monthlyRate(amount: number, interval: string | null, count: number): number {
  const months =
    interval === 'year'
      ? 12 * count
      : interval === 'month'
        ? count
        : interval === 'week'
          ? count / 4.345
          : interval === 'day'
            ? count / 30.44
            : 1;
  return Math.round(amount / Math.max(months, 1e-9));
}

/** §3 discounted_badge: the saving against amount_old, in whole percent (0 without one). */
export function savingPercent(amount: number, amountOld: number | null): number {
  if (!amountOld || amountOld <= amount) return 0;
  return Math.round(((amountOld - amount) / amountOld) * 100);
}
