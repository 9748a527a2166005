// Russian in Latin letters, for slugs (slugify.ts) and for finding a Russian keyphrase in one
// (seo-analysis.ts). BGN/PCGN romanisation without its marks (ё is e, the hard and soft signs
// are dropped), so a slug stays plain ASCII and reads as people type Russian in a URL by hand.
// Characters that are not Russian letters pass through unchanged.

const LETTERS: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
};

const isUpper = (char: string | undefined) =>
  char !== undefined && char !== char.toLowerCase() && char === char.toUpperCase();

/** Russian letters to Latin ones ("Щука" → "Shchuka", "ЩУКА" → "SHCHUKA"); the rest as it is. */
export function transliterate(text: string): string {
  // ё and й may arrive decomposed (е + U+0308, и + U+0306); composed, they map on their own.
  const chars = [...text.normalize('NFC')];
  let out = '';
  for (const [index, char] of chars.entries()) {
    const lower = char.toLowerCase();
    const latin = LETTERS[lower];
    if (latin === undefined) {
      out += char;
    } else if (char === lower || latin === '') {
      out += latin;
    } else {
      // A capital inside a word written in capitals stays all capitals; a word's first
      // capital only has its first letter so ("Жук" → "Zhuk", "ЖУК" → "ZHUK").
      const before = chars[index - 1];
      const after = chars[index + 1];
      const shouting = isUpper(after) || (!/\p{L}/u.test(after ?? '') && isUpper(before));
      out += shouting ? latin.toUpperCase() : latin.charAt(0).toUpperCase() + latin.slice(1);
    }
  }
  return out;
}
