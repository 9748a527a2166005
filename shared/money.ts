import type { Lang } from './locales.ts';

// Money is an integer amount of the currency's minor unit (cents, kopecks; yen have none)
// with its ISO 4217 code: never a float. It is shown with Intl.NumberFormat in the page's
// language (§3 Locale: each language has its currency). Free of zod, like the other rules
// both sides read.

export interface Money {
  /** Minor units: 1999 is 19.99 USD, 1999 JPY is ¥1,999. */
  amount: number;
  /** ISO 4217, upper case. */
  currency: string;
}

const digitsByCurrency = new Map<string, number>();

/** How many decimals the currency's minor unit has (2 for USD and EUR, 0 for JPY). */
export function minorDigits(currency: string): number {
  let digits = digitsByCurrency.get(currency);
  if (digits === undefined) {
    digits =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2;
    digitsByCurrency.set(currency, digits);
  }
  return digits;
}

/** `amount` minor units as the page's language writes money: "19,99 €", "$19.99". */
export function formatMoney({ amount, currency }: Money, lang: Lang): string {
  const digits = minorDigits(currency);
  return new Intl.NumberFormat(lang, {
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(amount / 10 ** digits);
}

/** Whole major units (as a person types a price) to minor units, rounded half away from 0. */
export function toMinorUnits(major: number, currency: string): number {
  const scaled = major * 10 ** minorDigits(currency);
  return Math.sign(scaled) * Math.round(Math.abs(scaled));
}
