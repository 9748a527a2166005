import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGS } from '#shared/locales.ts';
import { firstPartLoaders, LAZY_PARTS } from './i18n.ts';
import { lazyPartLoaders } from './lazy-part-loaders.ts';

// The two globs name the first bundle's parts by hand: every file must be loaded by exactly
// one of them, and the lazy one must hold exactly the parts screens may ask for.
const root = join(import.meta.dirname, 'locales');
const partOf = (path: string) => path.slice(path.lastIndexOf('/') + 1, -'.json'.length);

describe('message part loaders', () => {
  it('load every locale file once, the lazy ones being LAZY_PARTS', () => {
    const files = LANGS.flatMap((lang) =>
      readdirSync(join(root, lang)).map((file) => `./locales/${lang}/${file}`),
    );
    const first = Object.keys(firstPartLoaders);
    const lazy = Object.keys(lazyPartLoaders);
    expect([...first, ...lazy].sort()).toEqual(files.sort());
    expect(new Set(lazy.map(partOf))).toEqual(new Set(LAZY_PARTS));
    expect(first.filter((path) => lazy.includes(path))).toEqual([]);
  });
});
