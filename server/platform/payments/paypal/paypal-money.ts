import type { Money } from '@paypal/paypal-server-sdk';
import { minorDigits } from '#shared/money.ts';

// PayPal writes money as decimal strings ("12.99"); we keep integer minor units.

export function toPayPalMoney(amount: number, currency: string): Money {
  const digits = minorDigits(currency);
  return { currencyCode: currency, value: (amount / 10 ** digits).toFixed(digits) };
}

export function fromPayPalMoney(money: Money | undefined): { amount: number; currency: string } {
  if (!money) return { amount: 0, currency: '' };
  const scaled = Number(money.value) * 10 ** minorDigits(money.currencyCode);
  return { amount: Math.sign(scaled) * Math.round(Math.abs(scaled)), currency: money.currencyCode };
}
