import { z } from 'zod';

// Generic messages for schemas that do not name their own: i18n keys under input_errors
// (§5), shared by the server's error envelope and the browser's forms.
export const FIELD_IS_REQUIRED = 'input_errors.field_is_required';
export const FIELD_IS_INVALID = 'input_errors.field_is_invalid';
export const FIELD_TOO_LONG = 'input_errors.field_is_too_long';

type Issue = z.core.$ZodRawIssue;

export function messageForIssue(issue: Issue): string {
  if (issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null)) {
    return FIELD_IS_REQUIRED;
  }
  if (issue.code === 'too_small' && issue.origin === 'string' && issue.minimum === 1) {
    return FIELD_IS_REQUIRED;
  }
  if (issue.code === 'too_big') return FIELD_TOO_LONG;
  return FIELD_IS_INVALID;
}

/** Installs the generic messages; both entry points (server, browser) call it once. */
export function installZodMessages(): void {
  z.config({ customError: messageForIssue });
}
