import { describe, expect, it } from 'vitest';
import { formatMoney, minorDigits, toMinorUnits } from './money.ts';

// Expected strings come from Intl itself: Chromium's ICU and Node's may differ in spacing.
const intl = (lang: string, currency: string, value: number, digits = 2) =>
  new Intl.NumberFormat(lang, {
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);

describe('money', () => {
  it('knows each currency’s minor unit', () => {
    expect(minorDigits('USD')).toBe(2);
    expect(minorDigits('EUR')).toBe(2);
    expect(minorDigits('RUB')).toBe(2);
    expect(minorDigits('JPY')).toBe(0);
  });

  it('formats minor units in the page’s language', () => {
    expect(formatMoney({ amount: 1999, currency: 'USD' }, 'en')).toBe(intl('en', 'USD', 19.99));
    expect(formatMoney({ amount: 1999, currency: 'EUR' }, 'fr')).toBe(intl('fr', 'EUR', 19.99));
    expect(formatMoney({ amount: 129900, currency: 'RUB' }, 'ru')).toBe(intl('ru', 'RUB', 1299));
    expect(formatMoney({ amount: 1999, currency: 'JPY' }, 'en')).toBe(intl('en', 'JPY', 1999, 0));
    expect(formatMoney({ amount: -500, currency: 'USD' }, 'en')).toBe(intl('en', 'USD', -5));
  });

  it('turns a typed price into minor units without float drift', () => {
    expect(toMinorUnits(19.99, 'USD')).toBe(1999);
    expect(toMinorUnits(0.1 + 0.2, 'EUR')).toBe(30);
    expect(toMinorUnits(1999, 'JPY')).toBe(1999);
    expect(toMinorUnits(-2.005, 'USD')).toBe(-201);
  });
});
