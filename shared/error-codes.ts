// The API's error codes and their message keys, without zod, so the browser's first bundle
// can name them; the envelope schema is in contracts/errors.ts.
export const ERROR_CODES = [
  'validation_failed',
  'bad_request',
  // An idempotency key sent again with other parameters than it was first used with.
  'idempotency_error',
  'unauthenticated',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'too_many_requests',
  'internal',
  'unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The message keys the server uses in `errors_info`. */
export const ERROR_MESSAGES: Record<ErrorCode, string> = {
  validation_failed: 'errors.validation_failed',
  bad_request: 'errors.bad_request',
  idempotency_error: 'errors.idempotency_error',
  unauthenticated: 'errors.unauthenticated',
  forbidden: 'errors.forbidden',
  not_found: 'errors.not_found',
  conflict: 'errors.conflict',
  payload_too_large: 'errors.payload_too_large',
  unsupported_media_type: 'errors.unsupported_media_type',
  too_many_requests: 'errors.too_many_requests',
  internal: 'errors.internal',
  unavailable: 'errors.unavailable',
};
