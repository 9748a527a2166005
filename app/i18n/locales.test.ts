import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGS } from '#shared/locales.ts';

// Every visible string is translated: each locale file has exactly the keys of English.
const folder = join(import.meta.dirname, 'locales');
const read = (lang: string) => JSON.parse(readFileSync(join(folder, `${lang}.json`), 'utf8'));

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) =>
    keys(inner, prefix ? `${prefix}.${key}` : key),
  );
}

describe('locale files', () => {
  it('exist for every language and nothing else', () => {
    expect(readdirSync(folder).sort()).toEqual(LANGS.map((lang) => `${lang}.json`).sort());
  });

  const english = keys(read('en')).sort();
  it.each(LANGS.filter((lang) => lang !== 'en'))(
    '%s has every English key and no other',
    (lang) => {
      expect(keys(read(lang)).sort()).toEqual(english);
    },
  );

  it.each(LANGS)('%s has no empty message', (lang) => {
    const flat = keys(read(lang));
    for (const key of flat) {
      const value = key
        .split('.')
        .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], read(lang));
      expect(value, key).toBeTypeOf('string');
      expect((value as string).trim(), key).not.toBe('');
    }
  });
});
