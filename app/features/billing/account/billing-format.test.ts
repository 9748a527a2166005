import { describe, expect, it } from 'vitest';
import { cardBrandName, cardExpiry, cardExpiryState } from './billing-format.ts';

describe('card expiry display', () => {
  const now = new Date('2026-11-24T12:00:00.000Z');
  it.each([
    [11, 2026, 'expired'], // §5: the first day of November has passed
    [10, 2026, 'expired'],
    [12, 2026, 'soon'],
    [1, 2027, 'soon'],
    [2, 2027, 'valid'],
    [4, 2031, 'valid'],
  ] as const)('%i/%i is %s', (exp_month, exp_year, state) => {
    expect(cardExpiryState({ exp_month, exp_year }, now)).toBe(state);
  });

  it('writes the expiry with its century and names the brand', () => {
    expect(cardExpiry({ exp_month: 4, exp_year: 2031 })).toBe('04/2031');
    expect(cardBrandName('visa')).toBe('Visa');
    expect(cardBrandName('amex')).toBe('American Express');
    expect(cardBrandName('elo')).toBe('Elo');
  });
});
