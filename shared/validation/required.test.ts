import { describe, expect, it } from 'vitest';
import { REQUIRED_STRING_MAX, requiredString } from './required.ts';
import { FIELD_IS_INVALID, FIELD_IS_REQUIRED, FIELD_TOO_LONG } from './zod-messages.ts';

const messages = (result: { error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('requiredString', () => {
  it.each<[string, number | undefined, unknown, string[]]>([
    ['a value', undefined, 'Jane', []],
    ['missing', undefined, undefined, [FIELD_IS_REQUIRED]],
    ['null', undefined, null, [FIELD_IS_REQUIRED]],
    ['not a string', undefined, 7, [FIELD_IS_INVALID]],
    ['empty', undefined, '', [FIELD_IS_REQUIRED]],
    ['blanks', undefined, ' \t\n ', [FIELD_IS_REQUIRED]],
    ['at the default limit', undefined, 'x'.repeat(REQUIRED_STRING_MAX), []],
    ['past the default limit', undefined, 'x'.repeat(REQUIRED_STRING_MAX + 1), [FIELD_TOO_LONG]],
    ['at a given limit', 5, 'abcde', []],
    ['past a given limit', 5, 'abcdef', [FIELD_TOO_LONG]],
    ['within the limit once trimmed', 5, '  abcde  ', []],
  ])('%s', (_, max, value, expected) => {
    expect(messages(requiredString(max).safeParse(value))).toEqual(expected);
  });

  it('trims the value', () => {
    expect(requiredString().parse('  Jane Doe  ')).toBe('Jane Doe');
  });
});
