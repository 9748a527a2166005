import { minorDigits } from '#shared/money.ts';

// Staff type prices as they think of them, in the currency's major unit ("9.99", "1499" yen);
// the server keeps integer minor units. The currency's own decimals decide (Intl).

/** Minor units as the text of the price field: 999 USD is "9.99", 999 JPY is "999". */
export function majorText(amount: number | null | undefined, currency: string): string {
  if (amount === null || amount === undefined) return '';
  const digits = safeDigits(currency);
  return (amount / 10 ** digits).toFixed(digits);
}

/**
 * The typed price in minor units: null for an empty field, NaN for text that is not a price
 * of that currency (more decimals than it has), which the schema then refuses as invalid.
 */
export function minorUnits(text: string, currency: string): number | null {
  const typed = text.trim().replace(',', '.');
  if (typed === '') return null;
  const digits = safeDigits(currency);
  const pattern = digits === 0 ? /^\d+$/ : new RegExp(`^\\d+(\\.\\d{1,${digits}})?$`);
  if (!pattern.test(typed)) return Number.NaN;
  const [whole = '0', fraction = ''] = typed.split('.');
  // Whole digits and padded decimals: no floating point between the text and the integer.
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

/** A currency Intl does not know (a typo being typed) counts as two decimals. */
function safeDigits(currency: string): number {
  try {
    return /^[A-Z]{3}$/.test(currency) ? minorDigits(currency) : 2;
  } catch {
    return 2;
  }
}
