import { z } from 'zod';
import { stringError } from './required.ts';
import { FIELD_IS_REQUIRED, FIELD_TOO_LONG } from './zod-messages.ts';

export const PASSWORD_ERROR_LENGTH = 'input_errors.password_error_length';
export const PASSWORD_ERROR_LETTERS = 'input_errors.password_error_letters';
export const PASSWORD_ERROR_NUMBERS = 'input_errors.password_error_numbers';
export const PASSWORD_ERROR_SYMBOLS = 'input_errors.password_error_symbols';
export const PASSWORDS_DONT_MATCH = 'input_errors.passwords_dont_match';

/** §5/§9: a password needs more than this many characters. */
export const PASSWORD_MIN_EXCLUSIVE = 8;

/**
 * Not in the spec: a ceiling so that a request cannot make the server hash megabytes; it is
 * far above anything a person or a password manager uses.
 */
export const PASSWORD_MAX_LENGTH = 255;

// "Letter" is any Unicode letter (\p{L}), so a Cyrillic or Greek password is not told it
// lacks letters; combining marks (\p{M}) belong to the letter they sit on, so an accent
// written as a separate code point, or a Devanagari vowel sign, is not a symbol. A digit is
// any decimal digit (\p{Nd}), Arabic-Indic ones too. A symbol is whatever is none of these
// and not whitespace: punctuation, currency signs, emoji, ½ and the like.
const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;
const SYMBOL = /[^\p{L}\p{M}\p{Nd}\s]/u;

// Counted in code points, so an emoji or a character outside the BMP is one character, as
// the user sees it, not two UTF-16 units.
const characterCount = (value: string): number => Array.from(value).length;

/** §5 length rule: more than 8 characters once the outer blanks are trimmed. */
export function isLongEnough(value: string): boolean {
  return characterCount(value.trim()) > PASSWORD_MIN_EXCLUSIVE;
}

/** Every §5 password rule the value breaks, as message keys in the order the spec lists them. */
export function passwordProblems(value: string): string[] {
  const problems: string[] = [];
  if (!isLongEnough(value)) problems.push(PASSWORD_ERROR_LENGTH);
  if (!LETTER.test(value)) problems.push(PASSWORD_ERROR_LETTERS);
  if (!DIGIT.test(value)) problems.push(PASSWORD_ERROR_NUMBERS);
  if (!SYMBOL.test(value)) problems.push(PASSWORD_ERROR_SYMBOLS);
  return problems;
}

// The value itself is never trimmed or otherwise changed: what the user typed is what gets
// hashed and later compared, so a password with a trailing blank still signs in. Only the
// length rule looks past the outer blanks (§5), so blanks cannot pad a short password.
// An empty field is reported as required rather than as four broken rules.
const passwordField = () =>
  z
    .string({ error: stringError })
    .refine((value) => value.trim() !== '', { error: FIELD_IS_REQUIRED, abort: true })
    .max(PASSWORD_MAX_LENGTH, { error: FIELD_TOO_LONG, abort: true });

/** A new password: every §5 rule, each failing rule its own issue. */
export const newPasswordSchema = passwordField().superRefine((value, ctx) => {
  for (const message of passwordProblems(value)) ctx.addIssue({ code: 'custom', message });
});

/**
 * The current password: §5 asks only for the length rule, so a password set under older,
 * looser rules can still be confirmed; the stored hash is the real check.
 */
export const currentPasswordSchema = passwordField().refine(isLongEnough, {
  error: PASSWORD_ERROR_LENGTH,
});

/** The confirmation field on its own: required; its match is checked on the whole object. */
export const passwordConfirmationSchema = passwordField();

type PasswordPairShape = {
  password: typeof newPasswordSchema;
  password_confirmation: typeof passwordConfirmationSchema;
};

const hasComparablePair = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null) return false;
  const { password, password_confirmation: confirmation } = value as Record<string, unknown>;
  return (
    typeof password === 'string' && typeof confirmation === 'string' && confirmation.trim() !== ''
  );
};

/**
 * An object with `password` and `password_confirmation` (plus any `extra` fields, such as
 * `current_password` or an admin form's name and e-mail), whose confirmation must equal the
 * password (§5), reported on the confirmation field. Extra fields are taken here because
 * zod refuses to `.extend()` an object that already carries a refinement.
 */
export function passwordPairSchema<Extra extends z.ZodRawShape = Record<never, never>>(
  extra?: Extra,
) {
  const shape = {
    ...(extra as Extra),
    password: newPasswordSchema,
    password_confirmation: passwordConfirmationSchema,
  } as Omit<Extra, keyof PasswordPairShape> & PasswordPairShape;
  return z.object(shape).refine(
    (value) => {
      const pair = value as z.infer<z.ZodObject<PasswordPairShape>>;
      return pair.password === pair.password_confirmation;
    },
    {
      error: PASSWORDS_DONT_MATCH,
      path: ['password_confirmation'],
      // By default zod skips an object refinement once any field failed; a mismatch is
      // worth showing even while the new password still breaks a rule, so run it whenever
      // both values are there to compare.
      when: (payload) => hasComparablePair(payload.value),
    },
  );
}
