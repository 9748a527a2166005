import { BILLING_MESSAGES } from '#shared/contracts/billing.ts';
import { apiErrorFromBody } from '../../api/api-error.ts';

// The card form's tokenizer: the card details go to the payment service's `tokenize_url`
// (shared/contracts/billing.ts serviceView), never to our API, which only ever sees the token.
// In the embedded default that URL is the sandbox's stand-in for Stripe.js; it answers
// `{ id: 'tok_…' }`, or 402 `{ error: { code, message, param } }` where `param` names the
// field at fault (number | expiry | cvc).

/** What the tokenizer is sent: digits only, the expiry year with its century (§3). */
export interface CardDetails {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
  name: string;
}

/** The card form's fields a refusal can point at. */
export type CardErrorField = 'number' | 'expiry' | 'cvc';

export type TokenizeResult =
  | { ok: true; token: string }
  /** `message` is an i18n key; `field` null: a refusal about no one field (shown on the form). */
  | { ok: false; field: CardErrorField | null; message: string };

// The provider's refusal codes (Stripe's vocabulary, which the sandbox copies) in our words:
// its `message` is English written for developers, so the page shows its own translation.
const CODE_MESSAGES: Record<string, string> = {
  card_number_invalid: BILLING_MESSAGES.cardNumberInvalid,
  card_expiry_invalid: BILLING_MESSAGES.cardExpiryInvalid,
  card_cvc_invalid: BILLING_MESSAGES.cardCvcInvalid,
  incorrect_number: BILLING_MESSAGES.cardNumberInvalid,
  invalid_number: BILLING_MESSAGES.cardNumberInvalid,
  invalid_expiry_month: BILLING_MESSAGES.cardExpiryInvalid,
  invalid_expiry_year: BILLING_MESSAGES.cardExpiryInvalid,
  expired_card: BILLING_MESSAGES.cardExpired,
  incorrect_cvc: BILLING_MESSAGES.cardCvcInvalid,
  invalid_cvc: BILLING_MESSAGES.cardCvcInvalid,
  card_declined: BILLING_MESSAGES.cardDeclined,
  insufficient_funds: BILLING_MESSAGES.insufficientFunds,
  authentication_failed: BILLING_MESSAGES.authenticationFailed,
  processing_error: BILLING_MESSAGES.processingError,
};

const PARAM_MESSAGES: Record<CardErrorField, string> = {
  number: BILLING_MESSAGES.cardNumberInvalid,
  expiry: BILLING_MESSAGES.cardExpiryInvalid,
  cvc: BILLING_MESSAGES.cardCvcInvalid,
};

const BILLING_KEYS = new Set<string>(Object.values(BILLING_MESSAGES));

function fieldOf(param: unknown, code: string): CardErrorField | null {
  if (param === 'number' || param === 'expiry' || param === 'cvc') return param;
  // Stripe names the expiry's halves apart.
  if (param === 'exp_month' || param === 'exp_year') return 'expiry';
  if (code === 'card_declined' || code === 'insufficient_funds') return 'number';
  return null;
}

/** A 402 body (or anything else a refusal came with) as a field and a message key. */
export function readRefusal(body: unknown): { field: CardErrorField | null; message: string } {
  const error =
    typeof body === 'object' && body !== null
      ? (body as { error?: { code?: unknown; message?: unknown; param?: unknown } }).error
      : undefined;
  const code = typeof error?.code === 'string' ? error.code : '';
  const field = fieldOf(error?.param, code);
  // A tokenizer of ours may answer with our own key already.
  const own = typeof error?.message === 'string' && BILLING_KEYS.has(error.message);
  const message =
    (own ? (error?.message as string) : undefined) ??
    CODE_MESSAGES[code] ??
    (field ? PARAM_MESSAGES[field] : BILLING_MESSAGES.processingError);
  return { field, message };
}

function sameOrigin(url: string): boolean {
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

/**
 * Exchanges card details for a one-use token. Never throws for a refusal or a network
 * failure: the caller shows the message (under `field`, else above the form). A cancelled
 * request still throws its AbortError.
 */
export async function tokenizeCard(
  url: string,
  card: CardDetails,
  signal?: AbortSignal,
): Promise<TokenizeResult> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
  };
  // Our own server (the sandbox) asks every POST for the CSRF header; a provider elsewhere
  // would answer that header with a refused preflight, so it is only sent at home.
  if (sameOrigin(url)) headers['x-requested-with'] = 'fetch';
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(card),
      credentials: sameOrigin(url) ? 'same-origin' : 'omit',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    return { ok: false, field: null, message: 'ui.request_error.network' };
  }
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.ok) {
    const id = (body as { id?: unknown } | undefined)?.id;
    if (typeof id === 'string' && id !== '') return { ok: true, token: id };
    return { ok: false, field: null, message: BILLING_MESSAGES.processingError };
  }
  // 402 is the processor's refusal of the card; anything else (too many tries, a server
  // down) is our own envelope, or no answer worth reading.
  if (response.status !== 402) {
    return { ok: false, field: null, message: apiErrorFromBody(response.status, text).messageKey };
  }
  return { ok: false, ...readRefusal(body) };
}
