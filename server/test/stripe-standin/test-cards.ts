import type { PaymentError } from './standin-objects.ts';

// Stripe's documented test card numbers, as the stand-in's processor answers them: some are
// refused when attached (Stripe checks a card when it is saved), one only when charged.

interface TestCard {
  /** Refused when saved to a customer (and so at Checkout). */
  onAttach?: PaymentError;
  /** Saved fine, refused when charged (renewals, payInvoice). */
  onCharge?: PaymentError;
}

const declined = (decline_code: string, message: string): PaymentError => ({
  type: 'card_error',
  code: 'card_declined',
  decline_code,
  message,
});

const TEST_CARDS: Record<string, TestCard> = {
  '4000000000000002': { onAttach: declined('generic_decline', 'Your card was declined.') },
  '4000000000009995': {
    onAttach: declined('insufficient_funds', 'Your card has insufficient funds.'),
  },
  '4000000000000069': {
    onAttach: { type: 'card_error', code: 'expired_card', message: 'Your card has expired.' },
  },
  '4000000000000341': { onCharge: declined('generic_decline', 'Your card was declined.') },
  '4000002760003184': {
    onCharge: declined(
      'authentication_required',
      'Your card was declined. This transaction requires authentication.',
    ),
  },
};

export function testCard(number: string): TestCard {
  return TEST_CARDS[number] ?? {};
}

export function brandOf(number: string): string {
  if (number.startsWith('4')) return 'visa';
  if (/^5[1-5]/.test(number) || /^2[2-7]/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  return 'unknown';
}

/** A number that passes the Luhn check (typos are refused before anything else). */
export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let index = 0; index < number.length; index += 1) {
    let digit = Number(number[number.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
