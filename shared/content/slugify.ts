import { SLUG_MAX } from './content-values.ts';
import { transliterate } from './transliterate.ts';

/**
 * A slug made from a title or a tag's name: Russian transliterated, accents dropped, every
 * run of other characters one hyphen. Empty when nothing of the text is left.
 */
export function slugify(text: string): string {
  return transliterate(text)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
}
