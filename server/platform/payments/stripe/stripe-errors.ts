import Stripe from 'stripe';
import { type GatewayDecline, GatewayRequestError, GatewayUnavailable } from '../gateway.ts';

// Stripe's refusals in our terms. Card errors are the customer's (a decline, shown under the
// card field); a missing object or a state conflict is the caller's; an outage, a rate limit
// or a rejected key is ours to retry or fix. Messages are Stripe's own, which never carry a
// key in full; an authentication failure is named without Stripe's words to be sure.

const STATE_CONFLICTS = new Set([
  'charge_already_refunded',
  'charge_disputed',
  'invoice_not_editable',
  'invoice_payment_intent_requires_action',
  'payment_intent_unexpected_state',
  'refund_disputed_payment',
  'subscription_canceled',
]);

/** Stripe's decline reasons, as our decline codes (gateway-refs.ts shows them). */
const DECLINES: Record<string, string> = {
  insufficient_funds: 'insufficient_funds',
  expired_card: 'expired_card',
  authentication_required: 'authentication_required',
  incorrect_number: 'card_number_invalid',
  invalid_number: 'card_number_invalid',
  incorrect_cvc: 'card_cvc_invalid',
  invalid_cvc: 'card_cvc_invalid',
  invalid_expiry_month: 'card_expiry_invalid',
  invalid_expiry_year: 'card_expiry_invalid',
};

export function isStripeError(error: unknown): error is Stripe.errors.StripeError {
  return error instanceof Stripe.errors.StripeError;
}

/** A card refusal in our words, from a card error or a PaymentIntent's last error. */
export function declineFrom(source: {
  code?: string | null;
  decline_code?: string | null;
  message?: string | null;
}): GatewayDecline {
  const code =
    DECLINES[source.decline_code ?? ''] ?? DECLINES[source.code ?? ''] ?? 'card_declined';
  return { code, message: source.message ?? 'The card was declined.' };
}

/** The decline inside a Stripe card error; null for any other failure. */
export function declineOf(error: unknown): GatewayDecline | null {
  if (!isStripeError(error) || error.type !== 'StripeCardError') return null;
  return declineFrom(error);
}

export function gatewayFailure(error: unknown, what: string): Error {
  if (!isStripeError(error)) return error instanceof Error ? error : new Error(String(error));
  switch (error.type) {
    case 'StripeConnectionError':
    case 'StripeAPIError':
    case 'StripeRateLimitError':
      return new GatewayUnavailable(`Stripe could not ${what}: ${error.message}`, { cause: error });
    case 'StripeAuthenticationError':
    case 'StripePermissionError':
      return new GatewayUnavailable(`Stripe refused our key while trying to ${what}`);
  }
  if (error.statusCode === 404 || error.code === 'resource_missing') {
    return new GatewayRequestError('not_found', `Stripe could not ${what}: ${error.message}`);
  }
  if (error.statusCode === 409 || STATE_CONFLICTS.has(error.code ?? '')) {
    return new GatewayRequestError('invalid_state', `Stripe could not ${what}: ${error.message}`);
  }
  if ((error.statusCode ?? 500) >= 500) {
    return new GatewayUnavailable(`Stripe could not ${what}: ${error.message}`, { cause: error });
  }
  return new GatewayRequestError('invalid_request', `Stripe could not ${what}: ${error.message}`);
}

/** Runs one call to Stripe, its failure in our terms. */
export async function asking<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw gatewayFailure(error, what);
  }
}

/** Like `asking`, but "no such object" answers null. */
export async function askingOrNull<T>(what: string, call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (error) {
    const failure = gatewayFailure(error, what);
    if (failure instanceof GatewayRequestError && failure.kind === 'not_found') return null;
    throw failure;
  }
}
