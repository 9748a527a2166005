import type { GatewayDecline } from '../gateway.ts';
import type { CardBehaviour, CardDetails } from './sandbox-objects.ts';

// Stripe's test card numbers and what each does; any other number that passes Luhn is a
// generic card that works. Only the behaviour is kept with a card, never its number.

const TEST_CARDS: Readonly<Record<string, CardBehaviour>> = {
  '4242424242424242': 'succeeds',
  '5555555555554444': 'succeeds',
  '4000000000000002': 'declined',
  '4000000000009995': 'insufficient_funds',
  // Every charge wants 3-D Secure: on-session it sends the customer to the confirmation
  // page, off-session (renewals) it cannot, so it fails.
  '4000002760003184': 'requires_authentication',
  // Attaches fine, then every charge fails: how a renewal is made to fail.
  '4000000000000341': 'charges_fail',
};

export const DECLINE_MESSAGES = {
  card_declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  expired_card: 'Your card has expired.',
  authentication_required:
    'This payment needs the cardholder to authenticate (3-D Secure), which cannot happen off-session.',
  authentication_failed: 'The cardholder did not complete authentication.',
  payment_method_required: 'There is no card to charge.',
} as const;
export type DeclineCode = keyof typeof DECLINE_MESSAGES;

export function decline(code: DeclineCode): GatewayDecline {
  return { code, message: DECLINE_MESSAGES[code] };
}

/** The Luhn checksum every card number carries in its last digit. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The card network, by the number's leading digits (IIN ranges). */
export function cardBrand(digits: string): string {
  if (digits.startsWith('4')) return 'visa';
  const two = Number(digits.slice(0, 2));
  const four = Number(digits.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'mastercard';
  if (two === 34 || two === 37) return 'amex';
  if (digits.startsWith('6011') || digits.startsWith('65')) return 'discover';
  return 'unknown';
}

/** §5: a card is expired once the first day of its expiry month is earlier than now. */
export function isExpired(expMonth: number, expYear: number, now: Date): boolean {
  return Date.UTC(expYear, expMonth - 1, 1) < now.getTime();
}

/** Two-digit years (31) are this century's (2031); four digits are taken as given. */
export function withCentury(year: number): number {
  return year < 100 ? 2000 + year : year;
}

export interface CardFormError {
  code: 'card_number_invalid' | 'card_expiry_invalid' | 'expired_card' | 'card_cvc_invalid';
  message: string;
  param: 'number' | 'expiry' | 'cvc';
}

export interface CardFormInput {
  number?: unknown;
  exp_month?: unknown;
  exp_year?: unknown;
  cvc?: unknown;
}

const asText = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';

function asInteger(value: unknown): number | null {
  const text = asText(value);
  return /^\d{1,4}$/.test(text) ? Number(text) : null;
}

/** Checks what the card form sent, as a processor's tokenizer does, in the form's order. */
export function readCardForm(
  input: CardFormInput,
  now: Date,
): { card: CardDetails } | { error: CardFormError } {
  const digits = asText(input.number).replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits)) {
    return {
      error: {
        code: 'card_number_invalid',
        message: 'Your card number is invalid.',
        param: 'number',
      },
    };
  }
  const expMonth = asInteger(input.exp_month);
  const rawYear = asInteger(input.exp_year);
  const expYear = rawYear === null ? null : withCentury(rawYear);
  const thisYear = now.getUTCFullYear();
  if (
    expMonth === null ||
    expMonth < 1 ||
    expMonth > 12 ||
    expYear === null ||
    expYear < 2000 ||
    expYear > thisYear + 50
  ) {
    return {
      error: {
        code: 'card_expiry_invalid',
        message: "Your card's expiration date is invalid.",
        param: 'expiry',
      },
    };
  }
  if (isExpired(expMonth, expYear, now)) {
    return {
      error: { code: 'expired_card', message: DECLINE_MESSAGES.expired_card, param: 'expiry' },
    };
  }
  if (!/^\d{3,4}$/.test(asText(input.cvc))) {
    return {
      error: {
        code: 'card_cvc_invalid',
        message: "Your card's security code is invalid.",
        param: 'cvc',
      },
    };
  }
  return {
    card: {
      brand: cardBrand(digits),
      last4: digits.slice(-4),
      expMonth,
      expYear,
      behaviour: TEST_CARDS[digits] ?? 'succeeds',
    },
  };
}

/** Whether saving the card is refused outright (a processor checks a card when attaching). */
export function attachDecline(card: CardDetails, now: Date): GatewayDecline | null {
  if (isExpired(card.expMonth, card.expYear, now)) return decline('expired_card');
  if (card.behaviour === 'declined') return decline('card_declined');
  if (card.behaviour === 'insufficient_funds') return decline('insufficient_funds');
  return null;
}

/** What charging the card does: succeed, ask for 3-D Secure (on-session), or decline. */
export function chargeAnswer(
  card: CardDetails,
  now: Date,
  offSession: boolean,
):
  | { kind: 'succeeded' }
  | { kind: 'requires_action' }
  | { kind: 'declined'; decline: GatewayDecline } {
  if (isExpired(card.expMonth, card.expYear, now)) {
    return { kind: 'declined', decline: decline('expired_card') };
  }
  switch (card.behaviour) {
    case 'succeeds':
      return { kind: 'succeeded' };
    case 'requires_authentication':
      return offSession
        ? { kind: 'declined', decline: decline('authentication_required') }
        : { kind: 'requires_action' };
    case 'insufficient_funds':
      return { kind: 'declined', decline: decline('insufficient_funds') };
    case 'declined':
    case 'charges_fail':
      return { kind: 'declined', decline: decline('card_declined') };
  }
}
