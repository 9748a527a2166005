import { z } from 'zod';

// One error envelope for the whole API (§5). Messages are i18n keys (for example
// `input_errors.field_is_required`) that the browser translates, so the server never has
// to know which language a screen is showing.
export const ERROR_CODES = [
  'validation_failed',
  'bad_request',
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

export const errorEnvelope = z
  .object({
    code: z.enum(ERROR_CODES),
    errors_validation: z.record(z.string(), z.array(z.string())).optional(),
    errors_info: z.array(z.string()).optional(),
  })
  .meta({ id: 'ErrorEnvelope' });
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

/** The message keys the server uses in `errors_info`. */
export const ERROR_MESSAGES: Record<ErrorCode, string> = {
  validation_failed: 'errors.validation_failed',
  bad_request: 'errors.bad_request',
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
