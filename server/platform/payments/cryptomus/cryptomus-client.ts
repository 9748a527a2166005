import type { CryptomusSettings } from '#shared/billing/gateway-settings.ts';
import { GatewayRequestError, GatewayUnavailable } from '../gateway.ts';
import { cryptomusSign, phpJson } from './cryptomus-signature.ts';

// Cryptomus has no SDK for Node: every call is a signed JSON POST (doc.cryptomus.com,
// "Request format") answered `{ "state": 0, "result": … }`, or `{ "state": 1, "message" }` /
// `{ "state": 1, "errors": {…} }` with a 4xx when refused.

export const CRYPTOMUS_API_URL = 'https://api.cryptomus.com';
const TIMEOUT_MS = 15_000;

export interface CryptomusClient {
  /** POSTs `body` to `path` (`/v1/payment/info` …) and answers `result`. */
  call(path: string, body: object, query?: Record<string, string>): Promise<unknown>;
}

function refusal(status: number, answer: unknown, path: string): Error {
  const { message, errors } = (answer ?? {}) as { message?: unknown; errors?: unknown };
  const text =
    typeof message === 'string'
      ? message
      : errors && typeof errors === 'object'
        ? `invalid ${Object.keys(errors).join(', ')}`
        : `HTTP ${status}`;
  const words = `Cryptomus ${path}: ${text}`;
  if (status === 404 || /not found/i.test(text)) return new GatewayRequestError('not_found', words);
  // Our keys were refused: a setting to fix, not a request to change.
  if (status === 401 || status === 403) return new GatewayUnavailable(words);
  if (status >= 500 || status === 429) return new GatewayUnavailable(words);
  if (/already|not (paid|final)|forbidden/i.test(text))
    return new GatewayRequestError('invalid_state', words);
  return new GatewayRequestError('invalid_request', words);
}

export function createCryptomusClient(settings: CryptomusSettings): CryptomusClient {
  const base = (settings.apiUrl ?? CRYPTOMUS_API_URL).replace(/\/+$/, '');
  return {
    async call(path, body, query) {
      // The body is sent as PHP would write it, so the bytes we sign are the bytes they read.
      const text = phpJson(body);
      const url = new URL(`${base}${path}`);
      for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value);
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            accept: 'application/json',
            'content-type': 'application/json',
            merchant: settings.merchantId,
            sign: cryptomusSign(text, settings.paymentKey),
          },
          body: text,
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        throw new GatewayUnavailable(`Cryptomus ${path}: unreachable`, { cause: error });
      }
      const answer: unknown = await response.json().catch(() => null);
      const state = (answer as { state?: unknown } | null)?.state;
      if (!response.ok || state !== 0) throw refusal(response.status, answer, path);
      return (answer as { result: unknown }).result;
    },
  };
}
