import { minorDigits } from '#shared/money.ts';

/**
 * Typed money ("12.5", "12,50") in minor units of `currency`; null when it is not an amount
 * (letters, more decimals than the currency has, nothing, zero or less).
 */
export function parseMinor(text: string, currency: string): number | null {
  const digits = minorDigits(currency);
  const normalized = text.trim().replace(/\s/g, '').replace(',', '.');
  const pattern = digits === 0 ? /^\d+$/ : new RegExp(`^\\d+(\\.\\d{1,${digits}})?$`);
  if (!pattern.test(normalized)) return null;
  const [whole = '0', fraction = ''] = normalized.split('.');
  const minor = Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
  return Number.isSafeInteger(minor) && minor > 0 ? minor : null;
}

/** Minor units as a plain number to edit ("12.50"). */
export function minorToText(amount: number, currency: string): string {
  const digits = minorDigits(currency);
  return digits === 0 ? String(amount) : (amount / 10 ** digits).toFixed(digits);
}
