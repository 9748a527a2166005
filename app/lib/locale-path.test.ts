import { describe, expect, it } from 'vitest';
import { withLocale } from './locale-path.ts';

describe('withLocale', () => {
  it.each([
    ['/en', 'fr', '/fr'],
    ['/en/', 'fr', '/fr'],
    ['/en/account/profile', 'ru', '/ru/account/profile'],
    ['/account/profile', 'nl', '/nl/account/profile'],
    ['/', 'es', '/es'],
  ] as const)('%s in %s is %s', (path, lang, expected) => {
    expect(withLocale(path, lang)).toBe(expected);
  });
});
