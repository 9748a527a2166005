import { describe, expect, it } from 'vitest';
import { attachDecline, chargeAnswer, isExpired, passesLuhn, readCardForm } from './test-cards.ts';

const NOW = new Date('2026-11-15T12:00:00Z');

function cardOf(number: string) {
  const read = readCardForm({ number, exp_month: 12, exp_year: 2040, cvc: '123' }, NOW);
  if ('error' in read) throw new Error(read.error.code);
  return read.card;
}

describe('test cards', () => {
  it.each([
    ['4242 4242 4242 4242', 'visa', null, { kind: 'succeeded' }, { kind: 'succeeded' }],
    ['5555555555554444', 'mastercard', null, { kind: 'succeeded' }, { kind: 'succeeded' }],
    ['4000000000000002', 'visa', 'card_declined', null, null],
    ['4000000000009995', 'visa', 'insufficient_funds', null, null],
    [
      '4000002760003184',
      'visa',
      null,
      { kind: 'requires_action' },
      { kind: 'declined', decline: expect.objectContaining({ code: 'authentication_required' }) },
    ],
    [
      '4000000000000341',
      'visa',
      null,
      { kind: 'declined', decline: expect.objectContaining({ code: 'card_declined' }) },
      { kind: 'declined', decline: expect.objectContaining({ code: 'card_declined' }) },
    ],
    ['378282246310005', 'amex', null, { kind: 'succeeded' }, { kind: 'succeeded' }],
  ])(
    '%s (%s): attach %s, on-session %o, off-session %o',
    (number, brand, attach, onSession, offSession) => {
      const card = cardOf(number);
      expect(card.brand).toBe(brand);
      expect(card.last4).toBe(number.replaceAll(' ', '').slice(-4));
      expect(attachDecline(card, NOW)?.code ?? null).toBe(attach);
      if (onSession) expect(chargeAnswer(card, NOW, false)).toEqual(onSession);
      if (offSession) expect(chargeAnswer(card, NOW, true)).toEqual(offSession);
    },
  );

  it('keeps no card number, only what the number does', () => {
    expect(JSON.stringify(cardOf('4242424242424242'))).not.toContain('42424242');
  });

  it.each([
    [{ number: '4242424242424241' }, 'card_number_invalid', 'number'],
    [{ number: '4242' }, 'card_number_invalid', 'number'],
    [{ number: undefined }, 'card_number_invalid', 'number'],
    [{ exp_month: 13 }, 'card_expiry_invalid', 'expiry'],
    [{ exp_month: 'x' }, 'card_expiry_invalid', 'expiry'],
    [{ exp_year: 123 }, 'card_expiry_invalid', 'expiry'],
    [{ exp_month: 10, exp_year: 2026 }, 'expired_card', 'expiry'],
    [{ exp_month: 11, exp_year: 26 }, 'expired_card', 'expiry'],
    [{ cvc: '12' }, 'card_cvc_invalid', 'cvc'],
    [{ cvc: '12a' }, 'card_cvc_invalid', 'cvc'],
  ])('refuses %o with %s', (change, code, param) => {
    const input = {
      number: '4242424242424242',
      exp_month: 12,
      exp_year: 2031,
      cvc: '123',
      ...change,
    };
    expect(readCardForm(input, NOW)).toEqual({ error: expect.objectContaining({ code, param }) });
  });

  it('takes a two-digit year as this century and a month as text', () => {
    const read = readCardForm(
      { number: '4242424242424242', exp_month: '07', exp_year: '31', cvc: '1234' },
      NOW,
    );
    expect(read).toEqual({ card: expect.objectContaining({ expMonth: 7, expYear: 2031 }) });
  });

  it('§5: a card is expired from the first day of its expiry month', () => {
    expect(isExpired(12, 2026, NOW)).toBe(false);
    expect(isExpired(11, 2026, NOW)).toBe(true);
  });

  it('Luhn', () => {
    expect(passesLuhn('79927398713')).toBe(true);
    expect(passesLuhn('79927398710')).toBe(false);
  });
});
