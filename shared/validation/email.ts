import { z } from 'zod';
import { stringError } from './required.ts';
import { FIELD_IS_REQUIRED, FIELD_TOO_LONG } from './zod-messages.ts';

export const EMAIL_IS_INCORRECT = 'input_errors.email_is_incorrect';

/** RFC 5321 caps a forward path at 256 octets including the angle brackets. */
export const EMAIL_MAX_LENGTH = 254;

// §5 word for word: a local part of letters, digits, _ - . , + and space; then @; then
// dot-separated domain labels, at least two, the last of 2 to 4 characters. "Letters" are the
// Latin ones: mail systems that route non-ASCII addresses (SMTPUTF8) are rare, and an
// address nobody can deliver to is worse than a refused sign-up. Domain labels take letters,
// digits and hyphens (what DNS host names allow); the final label is the top-level domain, so
// letters only. The spec is looser than RFC 5322 on purpose (space, comma) and stricter on
// the TLD (no .museum); we keep both, since addresses already stored were checked this way.
export const EMAIL_PATTERN = /^[A-Za-z0-9_\-., +]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,4}$/;

/** The §5 format check alone, on the value as given (no trimming). */
export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}

/**
 * An e-mail field: trimmed (a pasted address often carries a blank) but not lower-cased, so
 * the address is stored as its owner typed it; required, at most 254 characters, §5 format.
 */
export const emailSchema = z
  .string({ error: stringError })
  .trim()
  .min(1, { error: FIELD_IS_REQUIRED, abort: true })
  .max(EMAIL_MAX_LENGTH, { error: FIELD_TOO_LONG, abort: true })
  .regex(EMAIL_PATTERN, { error: EMAIL_IS_INCORRECT });
