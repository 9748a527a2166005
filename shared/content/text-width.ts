// How wide a search result's title and description are on Google's desktop page, which cuts
// them by width, not by characters: "WWW" takes three times the room of "iii". Widths are
// Arial's advances in thousandths of an em (read from Liberation Sans, which has Arial's
// metrics), so an estimate is exact for Latin and Cyrillic text in the browser's Arial and
// close elsewhere. Titles are set at 20px, descriptions at 14px.

/** Past this the title is cut with "…" (the result column is 600px, less the ellipsis). */
export const TITLE_MAX_PIXELS = 580;
/** Two lines of description on desktop, before Google cuts it. */
export const DESCRIPTION_MAX_PIXELS = 920;

/** Character guidance for editors, who count characters more easily than pixels. */
export const TITLE_CHARS = { min: 30, max: 60 } as const;
export const DESCRIPTION_CHARS = { min: 120, max: 156 } as const;

const TITLE_FONT_PX = 20;
const DESCRIPTION_FONT_PX = 14;

/** Space (U+0020) to tilde (U+007E), in order. */
// biome-ignore format: one row of the table per sixteen characters
const ASCII = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
  556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
  1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
  333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
  556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/** А (U+0410) to я (U+044F), in order; Ё and ё decompose to Е and е, which are as wide. */
// biome-ignore format: one row of the table per sixteen characters
const CYRILLIC = [
  667, 656, 667, 542, 677, 667, 923, 604, 719, 719, 583, 656, 833, 722, 778, 719,
  667, 722, 611, 635, 760, 667, 740, 667, 917, 938, 792, 885, 656, 719, 1010, 722,
  556, 573, 531, 365, 583, 556, 669, 458, 559, 559, 438, 583, 688, 552, 556, 542,
  556, 500, 458, 500, 823, 500, 573, 521, 802, 823, 625, 719, 521, 510, 750, 542,
];

/** Letters and punctuation that have no base letter to fall back on. */
const OTHERS = new Map<string, number>([
  ['ß', 611],
  ['æ', 889],
  ['Æ', 1000],
  ['ø', 611],
  ['Ø', 778],
  ['œ', 944],
  ['Œ', 1000],
  ['ł', 222],
  ['Ł', 556],
  ['đ', 556],
  ['Đ', 722],
  ['ð', 556],
  ['þ', 556],
  ['Þ', 667],
  ['ı', 278],
  ['\u00a0', 278],
  ['–', 556],
  ['—', 1000],
  ['‘', 222],
  ['’', 222],
  ['‚', 222],
  ['“', 333],
  ['”', 333],
  ['„', 333],
  ['…', 1000],
  ['«', 556],
  ['»', 556],
  ['€', 556],
  ['£', 556],
  ['©', 737],
  ['®', 737],
  ['™', 1000],
  ['•', 350],
  ['·', 278],
  ['°', 400],
  ['×', 584],
]);

/** Any other character: a digit's width, which is also Arial's most common advance. */
const AVERAGE = 556;

function advance(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code >= 0x20 && code <= 0x7e) return ASCII[code - 0x20] ?? AVERAGE;
  if (code >= 0x410 && code <= 0x44f) return CYRILLIC[code - 0x410] ?? AVERAGE;
  // Browsers lay out a line break or a tab in a title as a space.
  if (/\s/.test(char)) return ASCII[0] ?? AVERAGE;
  return OTHERS.get(char) ?? AVERAGE;
}

/** Thousandths of an em: accents dropped (é is as wide as e), invisible marks as nothing. */
function emUnits(text: string): number {
  let units = 0;
  for (const char of text.normalize('NFD')) {
    // Combining marks (the accents NFD split off) and zero-width characters take no room.
    if (/[\p{M}\u200b-\u200d\u2060\ufeff]/u.test(char)) continue;
    units += advance(char);
  }
  return units;
}

/** Estimated width in pixels of a search result's title (Arial 20px). */
export function titlePixels(text: string): number {
  return Math.round((emUnits(text) * TITLE_FONT_PX) / 1000);
}

/** Estimated width in pixels of a search result's description (Arial 14px). */
export function descriptionPixels(text: string): number {
  return Math.round((emUnits(text) * DESCRIPTION_FONT_PX) / 1000);
}
