import { describe, expect, it } from 'vitest';
import { minorToText, parseMinor } from './money-input.ts';

describe('typed refund amounts', () => {
  it.each([
    ['12.5', 'USD', 1250],
    ['12,50', 'EUR', 1250],
    [' 0.01 ', 'USD', 1],
    ['1 000', 'RUB', 100000],
    ['500', 'JPY', 500],
  ])('reads %j %s as %d minor units', (text, currency, minor) => {
    expect(parseMinor(text, currency)).toBe(minor);
  });

  it.each([
    ['', 'USD'],
    ['0', 'USD'],
    ['-1', 'USD'],
    ['1.234', 'USD'],
    ['1.5', 'JPY'],
    ['12e3', 'USD'],
    ['abc', 'USD'],
  ])('refuses %j in %s', (text, currency) => {
    expect(parseMinor(text, currency)).toBeNull();
  });

  it('writes minor units back as an editable number', () => {
    expect(minorToText(1299, 'USD')).toBe('12.99');
    expect(minorToText(500, 'JPY')).toBe('500');
  });
});
