import { describe, expect, it } from 'vitest';
import { majorText, minorUnits } from './product-money.ts';

describe('prices typed in major units', () => {
  it.each([
    ['9.99', 'USD', 999],
    ['9,9', 'EUR', 990],
    ['12', 'USD', 1200],
    ['0.01', 'USD', 1],
    ['1499', 'JPY', 1499],
    ['', 'USD', null],
  ])('%s %s is %s minor units', (text, currency, minor) => {
    expect(minorUnits(text, currency)).toBe(minor);
  });

  it.each([
    ['9.999', 'USD'],
    ['14.5', 'JPY'],
    ['-1', 'USD'],
    ['nine', 'USD'],
  ])('refuses %s %s', (text, currency) => {
    expect(minorUnits(text, currency)).toBeNaN();
  });

  it('shows minor units with the currency decimals', () => {
    expect(majorText(999, 'USD')).toBe('9.99');
    expect(majorText(1499, 'JPY')).toBe('1499');
    expect(majorText(null, 'USD')).toBe('');
    expect(minorUnits(majorText(123_456, 'RUB'), 'RUB')).toBe(123_456);
  });
});
