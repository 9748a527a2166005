import type { Lang } from '#shared/locales.ts';
import { formatMoney, minorDigits } from '#shared/money.ts';

// How the statistics screens write their figures, in the page's language. Money is always
// of one named currency: no formatter here takes two.

/** Minor units of `currency` in full: "$1,234.50". */
export function moneyFormat(currency: string, lang: Lang): (amount: number) => string {
  return (amount) => formatMoney({ amount, currency }, lang);
}

/** Minor units of `currency`, short for an axis: "$1.2K". */
export function moneyAxisFormat(currency: string, lang: Lang): (amount: number) => string {
  const digits = minorDigits(currency);
  const format = new Intl.NumberFormat(lang, {
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
    notation: 'compact',
    maximumFractionDigits: 1,
  });
  return (amount) => format.format(amount / 10 ** digits);
}

export function countFormat(lang: Lang): (count: number) => string {
  const format = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
  return (count) => format.format(count);
}

/** A share 0…1 as a percentage: "4.2 %". */
export function percentFormat(lang: Lang): (share: number) => string {
  const format = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 });
  return (share) => format.format(share);
}

/** A country's name in the page's language, from its ISO code. */
export function countryName(code: string | null, lang: Lang, unknown: string): string {
  if (!code) return unknown;
  try {
    return new Intl.DisplayNames([lang], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
