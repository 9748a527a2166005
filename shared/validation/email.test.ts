import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMAIL_IS_INCORRECT, EMAIL_MAX_LENGTH, emailSchema, isValidEmail } from './email.ts';
import { FIELD_IS_INVALID, FIELD_IS_REQUIRED, FIELD_TOO_LONG } from './zod-messages.ts';

const messages = (result: { error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('isValidEmail', () => {
  it.each([
    ['plain', 'user@example.com'],
    ['dots in local part and subdomains', 'first.last@mail.example.co.uk'],
    ['every allowed local character', 'a_b-c.d,e+f g@example.org'],
    ['upper case', 'User@Example.COM'],
    ['digits in local part and domain', '42@mx1.example.net'],
    ['hyphen in a domain label', 'user@my-host.example.io'],
    ['final label of 2', 'user@example.de'],
    ['final label of 4', 'user@example.info'],
  ])('accepts %s: %j', (_, value) => {
    expect(isValidEmail(value)).toBe(true);
  });

  it.each([
    ['no @', 'user.example.com'],
    ['empty local part', '@example.com'],
    ['empty domain', 'user@'],
    ['a single domain label', 'user@localhost'],
    ['final label of 1', 'user@example.c'],
    ['final label of 5', 'user@example.works'],
    ['final label of 6', 'user@example.museum'],
    ['digit in the final label', 'user@example.c0m'],
    ['two @', 'user@@example.com'],
    ['@ inside the local part', 'us@er@example.com'],
    ['empty domain label', 'user@example..com'],
    ['domain starting with a dot', 'user@.example.com'],
    ['trailing dot', 'user@example.com.'],
    ['blank in the domain', 'user@exa mple.com'],
    ['underscore in the domain', 'user@ex_ample.com'],
    ['character outside the local set', 'user!@example.com'],
    ['apostrophe in the local part', "o'neil@example.com"],
    ['non-Latin letter in the local part', 'usér@example.com'],
    ['non-Latin domain', 'user@пример.рф'],
    ["a trailing blank (trimming is the schema's job)", 'user@example.com '],
  ])('refuses %s: %j', (_, value) => {
    expect(isValidEmail(value)).toBe(false);
  });

  const localChar = fc.constantFrom(...'abcxyzABCXYZ0129'.split(''), '_', '-', '.', ',', '+', ' ');
  const label = fc.stringMatching(/^[A-Za-z0-9-]{1,10}$/);
  const tld = fc.stringMatching(/^[A-Za-z]{2,4}$/);
  const local = fc.array(localChar, { minLength: 1, maxLength: 20 }).map((c) => c.join(''));
  const email = fc
    .tuple(local, fc.array(label, { minLength: 1, maxLength: 3 }), tld)
    .map(([l, labels, t]) => `${l}@${[...labels, t].join('.')}`);

  it('accepts every address built by the §5 grammar', () => {
    fc.assert(
      fc.property(email, (value) => {
        expect(isValidEmail(value)).toBe(true);
      }),
    );
  });

  it('refuses an address whose local part holds any character outside the §5 set', () => {
    fc.assert(
      fc.property(email, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), (value, c) => {
        fc.pre(!/^[A-Za-z0-9_\-., +]$/.test(c));
        expect(isValidEmail(`${c}${value}`)).toBe(false);
      }),
    );
  });
});

describe('emailSchema', () => {
  it('trims but keeps the case', () => {
    expect(emailSchema.parse('  User@Example.COM \n')).toBe('User@Example.COM');
  });

  const atLength = (length: number) => `${'a'.repeat(length - '@example.com'.length)}@example.com`;

  it.each<[string, unknown, string[]]>([
    ['valid', 'user@example.com', []],
    ['254 characters', atLength(EMAIL_MAX_LENGTH), []],
    ['255 characters', atLength(EMAIL_MAX_LENGTH + 1), [FIELD_TOO_LONG]],
    ['missing', undefined, [FIELD_IS_REQUIRED]],
    ['null', null, [FIELD_IS_REQUIRED]],
    ['not a string', 42, [FIELD_IS_INVALID]],
    ['empty', '', [FIELD_IS_REQUIRED]],
    ['blanks', '   ', [FIELD_IS_REQUIRED]],
    ['malformed', 'user@example', [EMAIL_IS_INCORRECT]],
  ])('%s', (_, value, expected) => {
    expect(messages(emailSchema.safeParse(value))).toEqual(expected);
  });
});
