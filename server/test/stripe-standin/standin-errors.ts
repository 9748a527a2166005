// Stripe's error answers: `{ error: { type, code, decline_code, message, param } }` with
// 402 for a card refused, 404 for an unknown id, 400 for a bad request, 401 for a bad key.

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: {
      type: 'card_error' | 'invalid_request_error' | 'idempotency_error' | 'api_error';
      code?: string;
      decline_code?: string;
      param?: string;
      message: string;
    },
  ) {
    super(body.message);
  }
}

export function noSuch(kind: string, id: string): StripeApiError {
  return new StripeApiError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
  });
}

export function badRequest(message: string, param?: string, code?: string): StripeApiError {
  return new StripeApiError(400, {
    type: 'invalid_request_error',
    message,
    ...(param ? { param } : {}),
    ...(code ? { code } : {}),
  });
}
