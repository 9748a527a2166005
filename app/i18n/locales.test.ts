import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGS } from '#shared/locales.ts';

// Every visible string is translated: each language folder has the files of English, each
// file exactly the keys of its English twin, and no message is empty.
const root = join(import.meta.dirname, 'locales');
const files = (lang: string) => readdirSync(join(root, lang)).sort();
const read = (lang: string, file: string) =>
  JSON.parse(readFileSync(join(root, lang, file), 'utf8')) as Record<string, unknown>;

function leaves(value: unknown, prefix = ''): [string, unknown][] {
  if (typeof value !== 'object' || value === null) return [[prefix, value]];
  return Object.entries(value).flatMap(([key, inner]) =>
    leaves(inner, prefix ? `${prefix}.${key}` : key),
  );
}

const keys = (value: unknown) => leaves(value).map(([key]) => key);

describe('locale files', () => {
  it('exist for every language and nothing else', () => {
    expect(readdirSync(root).sort()).toEqual([...LANGS].sort());
  });

  it('never share a top-level key between two files', () => {
    const owner = new Map<string, string>();
    for (const file of files('en')) {
      for (const key of Object.keys(read('en', file))) {
        expect(owner.get(key), `${key} in ${file}`).toBeUndefined();
        owner.set(key, file);
      }
    }
  });

  it.each(LANGS.filter((lang) => lang !== 'en'))(
    '%s has every English key and no other',
    (lang) => {
      expect(files(lang)).toEqual(files('en'));
      for (const file of files('en')) {
        expect(keys(read(lang, file)).sort(), `${lang}/${file}`).toEqual(
          keys(read('en', file)).sort(),
        );
      }
    },
  );

  it.each(LANGS)('%s has no empty message and keeps every placeholder', (lang) => {
    for (const file of files(lang)) {
      const english = new Map(leaves(read('en', file)));
      for (const [key, value] of leaves(read(lang, file))) {
        expect(value, `${file}: ${key}`).toBeTypeOf('string');
        expect((value as string).trim(), `${file}: ${key}`).not.toBe('');
        const placeholders = (text: unknown) =>
          String(text)
            .match(/{{\s*\w+\s*}}/g)
            ?.sort() ?? [];
        expect(placeholders(value), `${file}: ${key}`).toEqual(placeholders(english.get(key)));
      }
    }
  });
});
