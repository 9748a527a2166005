import { z } from 'zod';
import { FIELD_IS_INVALID, FIELD_IS_REQUIRED, FIELD_TOO_LONG } from './zod-messages.ts';

/** The length most text columns allow; callers with longer fields pass their own limit. */
export const REQUIRED_STRING_MAX = 255;

// Schemas name their own messages rather than relying on installZodMessages(), so they read
// the same in a test, a script or a form that never installed the global map.
export const stringError = (issue: { input?: unknown }): string =>
  issue.input === undefined || issue.input === null ? FIELD_IS_REQUIRED : FIELD_IS_INVALID;

/**
 * A required text field (§5 "Required field"): the value is trimmed, so a field of blanks is
 * empty and gives field_is_required; past `max` characters it gives field_is_too_long.
 */
export function requiredString(max: number = REQUIRED_STRING_MAX) {
  return z
    .string({ error: stringError })
    .trim()
    .min(1, { error: FIELD_IS_REQUIRED, abort: true })
    .max(max, { error: FIELD_TOO_LONG });
}
