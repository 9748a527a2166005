import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  currentPasswordSchema,
  isLongEnough,
  PASSWORD_ERROR_LENGTH as LENGTH,
  PASSWORD_ERROR_LETTERS as LETTERS,
  PASSWORD_ERROR_NUMBERS as NUMBERS,
  newPasswordSchema,
  PASSWORD_MAX_LENGTH,
  PASSWORDS_DONT_MATCH,
  passwordPairSchema,
  passwordProblems,
  PASSWORD_ERROR_SYMBOLS as SYMBOLS,
} from './password.ts';
import { FIELD_IS_INVALID, FIELD_IS_REQUIRED, FIELD_TOO_LONG } from './zod-messages.ts';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

const byField = (result: {
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}): [string, string][] =>
  result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]) ?? [];

const letter = fc.constantFrom('a', 'Z', 'ж', 'λ', '中', 'é');
const digit = fc.constantFrom('0', '5', '9', '٣');
const symbol = fc.constantFrom('!', '#', '_', '-', '€', '😀', '.', '~');
const nonBlank = fc
  .string({ unit: 'binary', minLength: 1, maxLength: 1 })
  .filter((c) => !/\s/u.test(c));
const codePoints = (s: string) => Array.from(s);

// 9 or more characters without blanks, a letter, a digit and a symbol among them, anywhere.
const strongPassword = fc
  .tuple(letter, digit, symbol, fc.array(nonBlank, { minLength: 6, maxLength: 20 }))
  .chain(([l, d, s, rest]) => {
    const parts = [l, d, s, ...rest];
    return fc.shuffledSubarray(parts, { minLength: parts.length, maxLength: parts.length });
  })
  .map((parts) => parts.join(''));

describe('passwordProblems', () => {
  it.each<[string, string, string[]]>([
    ['letters, digit and symbol, 10 characters', 'abcdefgh1!', []],
    ['9 characters is enough', 'abcdefg1!', []],
    ['8 characters is not', 'abcdef1!', [LENGTH]],
    ['blanks around do not count', '   abcdef1!   ', [LENGTH]],
    ['blanks around a long one are fine', '  abcdefg1!  ', []],
    ['blanks inside count', 'abc def1!', []],
    ['empty breaks every rule', '', [LENGTH, LETTERS, NUMBERS, SYMBOLS]],
    ['only blanks break every rule', '          ', [LENGTH, LETTERS, NUMBERS, SYMBOLS]],
    ['no digit, no symbol', 'abcdefghij', [NUMBERS, SYMBOLS]],
    ['no letter', '123456789!', [LETTERS]],
    ['no symbol', 'abcdefgh12', [SYMBOLS]],
    ['no digit', 'abcdefgh!!', [NUMBERS]],
    ['only symbols', '!@#$%^&*()', [LETTERS, NUMBERS]],
    ['short and only digits, in rule order', '1234', [LENGTH, LETTERS, SYMBOLS]],
    ['Cyrillic letters', 'пароль123!', []],
    ['Greek letters', 'κωδικός12#', []],
    ['Chinese letters', '密码密码密码密码1!', []],
    ['Arabic-Indic digit', 'abcdefgh٣!', []],
    ['a blank is not a symbol', 'abc def 12', [SYMBOLS]],
    ['a tab or a line break is not a symbol', 'abc\tdef\n12', [SYMBOLS]],
    ['a non-breaking space is not a symbol', 'abc\u00a0def12', [SYMBOLS]],
    ['a combining accent is part of its letter', 'cafe\u0301cafe\u03011', [SYMBOLS]],
    ['underscore is a symbol', 'abcdefgh1_', []],
    ['currency sign is a symbol', 'abcdefgh1€', []],
    ['emoji is a symbol', 'abcdefgh1😀', []],
    ['emoji counts as one character', 'abcdef1😀', [LENGTH]],
    ['vulgar fraction is a symbol, not a digit', 'abcdefghi½', [NUMBERS]],
  ])('%s: %j', (_, value, expected) => {
    expect(passwordProblems(value)).toEqual(expected);
  });
});

describe('newPasswordSchema', () => {
  it('accepts a good password and keeps it exactly as typed', () => {
    expect(newPasswordSchema.parse(' abcdefg1! ')).toBe(' abcdefg1! ');
  });

  it.each<[string, unknown, string[]]>([
    ['missing', undefined, [FIELD_IS_REQUIRED]],
    ['null', null, [FIELD_IS_REQUIRED]],
    ['not a string', 12345678901, [FIELD_IS_INVALID]],
    ['empty', '', [FIELD_IS_REQUIRED]],
    ['blanks only', '   ', [FIELD_IS_REQUIRED]],
    ['short', 'abc1!', [LENGTH]],
    ['weak', 'abcdefghij', [NUMBERS, SYMBOLS]],
    ['too long', `a1!${'x'.repeat(PASSWORD_MAX_LENGTH)}`, [FIELD_TOO_LONG]],
  ])('%s', (_, value, expected) => {
    expect(messages(newPasswordSchema.safeParse(value))).toEqual(expected);
  });

  it('reports exactly passwordProblems for any non-blank string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (value) => {
        fc.pre(value.trim() !== '');
        expect(messages(newPasswordSchema.safeParse(value))).toEqual(passwordProblems(value));
      }),
    );
  });
});

describe('currentPasswordSchema', () => {
  it.each<[string, unknown, string[]]>([
    ['long enough, no other rule applies', 'abcdefghi', []],
    ['digits only but long enough', '123456789', []],
    ['8 characters', 'abcdefgh', [LENGTH]],
    ['8 characters with blanks around', '  abcdefgh  ', [LENGTH]],
    ['empty', '', [FIELD_IS_REQUIRED]],
    ['missing', undefined, [FIELD_IS_REQUIRED]],
  ])('%s', (_, value, expected) => {
    expect(messages(currentPasswordSchema.safeParse(value))).toEqual(expected);
  });
});

describe('passwordPairSchema', () => {
  const pair = passwordPairSchema();
  const good = 'abcdefg1!';

  it.each<[string, unknown, [string, string][]]>([
    ['matching', { password: good, password_confirmation: good }, []],
    [
      'different',
      { password: good, password_confirmation: 'abcdefg2!' },
      [['password_confirmation', PASSWORDS_DONT_MATCH]],
    ],
    [
      'different by a trailing blank, since the password is kept as typed',
      { password: good, password_confirmation: `${good} ` },
      [['password_confirmation', PASSWORDS_DONT_MATCH]],
    ],
    [
      'weak and different: both shown',
      { password: 'abc', password_confirmation: 'abd' },
      [
        ['password', LENGTH],
        ['password', NUMBERS],
        ['password', SYMBOLS],
        ['password_confirmation', PASSWORDS_DONT_MATCH],
      ],
    ],
    [
      'weak but matching: only the rules',
      { password: 'abcdefghij', password_confirmation: 'abcdefghij' },
      [
        ['password', NUMBERS],
        ['password', SYMBOLS],
      ],
    ],
    [
      'empty confirmation is required, not a mismatch',
      { password: good, password_confirmation: '' },
      [['password_confirmation', FIELD_IS_REQUIRED]],
    ],
    [
      'both missing',
      {},
      [
        ['password', FIELD_IS_REQUIRED],
        ['password_confirmation', FIELD_IS_REQUIRED],
      ],
    ],
  ])('%s', (_, value, expected) => {
    expect(byField(pair.safeParse(value))).toEqual(expected);
  });

  it('takes extra fields, such as the current password', () => {
    const schema = passwordPairSchema({ current_password: currentPasswordSchema });
    expect(
      schema.parse({ current_password: 'oldsecret', password: good, password_confirmation: good }),
    ).toEqual({ current_password: 'oldsecret', password: good, password_confirmation: good });
    expect(
      byField(
        schema.safeParse({ current_password: 'short', password: good, password_confirmation: 'x' }),
      ),
    ).toEqual([
      ['current_password', LENGTH],
      ['password_confirmation', PASSWORDS_DONT_MATCH],
    ]);
  });

  it('accepts any valid password confirmed by itself and refuses any other confirmation', () => {
    fc.assert(
      fc.property(strongPassword, fc.string(), (password, other) => {
        expect(pair.safeParse({ password, password_confirmation: password }).success).toBe(true);
        fc.pre(other !== password && other.trim() !== '');
        expect(byField(pair.safeParse({ password, password_confirmation: other }))).toEqual([
          ['password_confirmation', PASSWORDS_DONT_MATCH],
        ]);
      }),
    );
  });
});

describe('password properties', () => {
  it('passes any 9+ characters without blanks that hold a letter, a digit and a symbol', () => {
    fc.assert(
      fc.property(strongPassword, (password) => {
        expect(passwordProblems(password)).toEqual([]);
      }),
    );
  });

  it('never gains a problem when characters are added anywhere', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 20 }),
        fc.string({ unit: 'binary', maxLength: 10 }),
        fc.nat(),
        (value, added, at) => {
          const chars = codePoints(value);
          const index = at % (chars.length + 1);
          const longer = [...chars.slice(0, index), added, ...chars.slice(index)].join('');
          const before = passwordProblems(value);
          for (const problem of passwordProblems(longer)) expect(before).toContain(problem);
          if (isLongEnough(value)) expect(isLongEnough(longer)).toBe(true);
        },
      ),
    );
  });

  it('never counts outer blanks toward the length', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 20 }),
        fc.stringMatching(/^[ \t\n]{0,5}$/),
        fc.stringMatching(/^[ \t\n]{0,5}$/),
        (value, before, after) => {
          expect(isLongEnough(`${before}${value}${after}`)).toBe(isLongEnough(value));
        },
      ),
    );
  });
});
