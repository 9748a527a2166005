import { z } from 'zod';
import { ERROR_CODES } from '../error-codes.ts';

export { ERROR_CODES, ERROR_MESSAGES, type ErrorCode } from '../error-codes.ts';

// One error envelope for the whole API (§5). Messages are i18n keys (for example
// `input_errors.field_is_required`) that the browser translates, so the server never has
// to know which language a screen is showing.
export const errorEnvelope = z
  .object({
    code: z.enum(ERROR_CODES),
    errors_validation: z.record(z.string(), z.array(z.string())).optional(),
    errors_info: z.array(z.string()).optional(),
  })
  .meta({ id: 'ErrorEnvelope' });
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;
