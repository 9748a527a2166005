// Readability of a body's text per language: Flesch's reading ease and its adaptations,
// which all weigh sentence length against word length in syllables. Syllables are counted by
// spelling rules, not a dictionary, so a word now and then is off by one; over a text of a
// few hundred words that moves the score by a point or two, which is what the editor's
// "easy / hard" hint can afford.

export type ReadabilityLang = 'en' | 'es' | 'fr' | 'nl' | 'ru';

/** Flesch's bands, for the whole 0..100 scale, easiest first. */
export const READABILITY_BANDS = [
  'very_easy',
  'easy',
  'fairly_easy',
  'standard',
  'fairly_difficult',
  'difficult',
  'very_difficult',
] as const;
export type ReadabilityBand = (typeof READABILITY_BANDS)[number];

export interface Readability {
  /** 0..100, higher is easier; one decimal. */
  score: number;
  words: number;
  sentences: number;
  syllables: number;
  band: ReadabilityBand;
}

// Words -------------------------------------------------------------------------------

/** A word: letters and digits of any script, held together by an apostrophe or a hyphen. */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:['’-][\p{L}\p{M}\p{N}]+)*/gu;

/** The words of a plain text ("don't", "e-mail" and "aujourd'hui" are one word each). */
export function wordsOf(text: string): string[] {
  return text.normalize('NFC').match(WORD) ?? [];
}

// Sentences ---------------------------------------------------------------------------

/**
 * Where a sentence ends within a line: after ! ? … (and a closing quote or bracket), and after
 * a full stop unless the next word starts in lower case, which is what an abbreviation looks
 * like ("e.g. this", "etc. and"). The look-ahead for a space comes first so that the look
 * behind runs only at a space: a long run of brackets stays linear.
 */
const SENTENCE_END = /(?= )(?:(?<=[!?…。！？]['"”’»)\]]*) |(?<=\.['"”’»)\]]*) (?!\p{Ll}))/u;

/**
 * The sentences of a plain text: the pieces between sentence ends that hold a word. A line
 * break always ends one: headings and list items have no full stop.
 */
export function sentencesOf(text: string): string[] {
  return text
    .normalize('NFC')
    .split('\n')
    .flatMap((line) => line.replace(/\s+/g, ' ').trim().split(SENTENCE_END))
    .filter((piece) => wordsOf(piece).length > 0);
}

// Syllables ---------------------------------------------------------------------------

const stripAccents = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '');
const countMatches = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

/** English vowel pairs spoken as two syllables, where they are not part of a one-sound ending. */
const ENGLISH_TWO_SOUNDS = [
  /[aeiouy]ing$/,
  /[^cst]ia/,
  /(?<![cgstx]|ll|n)io(?!u)/,
  /(?<!^som|p)eo/,
  /[^qg]ua/,
  /[^qg]ue(?!s?$|d$)/,
  /iu/,
  /(?<![st]|[^s]c)ien(?:t|ce)|iet/,
  /oe[mt]/,
  /..ea$|^crea(?!tu)|^react/,
  /[^aeiou]i(?:er|est)$/,
  /[^cgtx]ious$|[^cg]eous$|uous$/,
  /ism$/,
];

/**
 * English: vowel groups (y a vowel, but not at the start or before a, e, o, u), less the silent
 * endings (make, makes, jumped, lovely, movement), plus the vowel pairs that are usually two
 * sounds (ra-di-o, ac-tu-al, be-ing, cli-ent). -le after a consonant is a syllable of its own
 * (ta-ble).
 */
function englishSyllables(part: string): number {
  // A final é is sounded (café, résumé): as "ee" it is no silent e.
  const word = stripAccents(part.toLowerCase().replace(/é$/, 'ee')).replace(/[^a-z]/g, '');
  if (!/[aeiouy]/.test(word)) return 0;
  const w = word.replace(/^y/, '#').replace(/y(?=[aeou])/g, '#');
  let count = countMatches(w, /[aeiouy]+/g);
  if (/[^aeiouy]e$/.test(w) && !/[^aeiouyl]le$|[^aeiouyr]re$/.test(w)) count -= 1;
  else if (/[^aeiouy]es$/.test(w) && !/(?:[sxzcg]|[cs]h|[^aeiouyl]l)es$/.test(w)) count -= 1;
  else if (/[^aeiouy]ed$/.test(w) && !/(?:[td]|[^aeiouyl]l)ed$/.test(w)) count -= 1;
  else if (/[^aeiouy]e(?:ly|ful|ness|less)$|[^aeiouyl]ement$|que$/.test(w)) count -= 1;
  if (/^some[^aeiouy]/.test(w)) count -= 1;
  for (const pattern of ENGLISH_TWO_SOUNDS) if (pattern.test(w)) count += 1;
  return Math.max(1, count);
}

const SPANISH_STRONG = new Set([...'aeoáéóíú']);

/**
 * Spanish: each vowel group is a syllable (a diphthong of a weak and another vowel, or of two
 * weak ones, is one: ciu-dad, bue-no), and two strong vowels side by side are two (te-a-tro).
 * A written accent on i or u breaks the diphthong (dí-a, pa-ís). A final y after a vowel is a
 * vowel (hoy, Uruguay).
 */
function spanishSyllables(part: string): number {
  const word = part.toLowerCase().replace(/(?<=[aeiouáéíóú])y$/, 'i');
  let count = 0;
  for (const [group] of word.matchAll(/[aeiouáéíóúü]+/g)) {
    count += 1;
    for (let index = 1; index < group.length; index++) {
      if (SPANISH_STRONG.has(group[index - 1] ?? '') && SPANISH_STRONG.has(group[index] ?? '')) {
        count += 1;
      }
    }
  }
  return count;
}

const FRENCH_VOWELS = 'aeiouyàâäéèêëîïôöùûüÿæœ';
const FRENCH_GROUP = new RegExp(`[${FRENCH_VOWELS}]+`, 'g');
const FRENCH_CONSONANT = '[bcdfghjklmnpqrstvwxzç]';

/**
 * French: vowel groups (ou, eau, oi … are one sound), with the u of qu/gu silent, the final
 * e, es and ent after a consonant silent (porte, portes, portent, but moment), and a hiatus
 * where the spelling marks one: a diaeresis (na-ïf), é against another vowel (ré-a-li-té,
 * po-é-sie; not the silent e of année), and i after a consonant and l or r (cli-ent).
 */
function frenchSyllables(part: string): number {
  const word = part
    .toLowerCase()
    .replace(/([qg])u(?=[aeiouyàâéèêîôûù])/g, '$1')
    .replace(/[ëïü]/g, (vowel) => `|${stripAccents(vowel)}`)
    .replace(/(?<=[ao])(?=[éè])/g, '|')
    .replace(/é(?=[aiouyàâéèêîôûù]|e(?!s?$|nt$))/g, 'é|')
    .replace(/(?<=[bcdfgkptv][lr]i)(?=[aeoué])/g, '|');
  let count = countMatches(word, FRENCH_GROUP);
  const silent = new RegExp(`${FRENCH_CONSONANT}(?:e|es|(?<!m)ent)$`);
  if (count > 1 && silent.test(word)) count -= 1;
  return count;
}

/** Dutch vowel spellings that are one sound, longest first so that eeu wins over ee. */
const DUTCH_UNITS =
  /aai|ooi|oei|eeu|ieu|éé|aa|ee|oo|uu|ie|ei|ij|ui|ou|au|eu|oe|[aeiouyáéíóúàèêâôû]/g;

/**
 * Dutch: each vowel sound is a syllable, spelt with one letter or a fixed digraph or
 * triphthong (ij, ui, eeu, oei … are one); a diaeresis starts a new one (i-dee-ën,
 * ge-ïn-te-res-seerd). The final e is a sounded schwa.
 */
function dutchSyllables(part: string): number {
  const word = part
    .toLowerCase()
    .replace(/[äëïöü]/g, (vowel) => `|${stripAccents(vowel)}`)
    .replace(/^y|y(?=[aeiou])/g, '#');
  return countMatches(word, DUTCH_UNITS);
}

/** Russian: one syllable per vowel letter, the rule of Russian spelling. */
function russianSyllables(part: string): number {
  const word = part.toLowerCase();
  // A Latin word in Russian text (a product name, "VPN") is read as English.
  return /[а-яё]/.test(word) ? countMatches(word, /[аеёиоуыэюя]/g) : englishSyllables(part);
}

const SYLLABLES: Record<ReadabilityLang, (part: string) => number> = {
  en: englishSyllables,
  es: spanishSyllables,
  fr: frenchSyllables,
  nl: dutchSyllables,
  ru: russianSyllables,
};

/**
 * Syllables of one word, the parts of "well-known" or "aujourd'hui" added up. At least 1 (a
 * number, an abbreviation), except for the Russian words with no vowel at all (в, к, с), which
 * Russian counts as none.
 */
export function countSyllables(word: string, lang: ReadabilityLang): number {
  const count = SYLLABLES[lang];
  let total = 0;
  for (const part of word.normalize('NFC').split(/['’-]/)) total += count(part);
  if (total === 0 && lang === 'ru' && /^[а-яё]+$/i.test(word)) return 0;
  return Math.max(1, total);
}

// Scores ------------------------------------------------------------------------------

interface Counts {
  words: number;
  sentences: number;
  syllables: number;
}

/**
 * Each language's formula, from words per sentence and syllables per word. Spanish is
 * Fernández Huerta's as Law (2011) corrected it: the usual "− 1.02·F" with F sentences per
 * 100 words would make shorter sentences harder; the formula it adapts from Flesch has
 * 1.02·words per sentence, which is 102/F.
 */
const FORMULAS: Record<ReadabilityLang, (wordsPerSentence: number, perWord: number) => number> = {
  // Flesch (1948).
  en: (wps, spw) => 206.835 - 1.015 * wps - 84.6 * spw,
  // Fernández Huerta (1959): 206.84 − 0.60·P − 102/F, P syllables and F sentences per 100 words.
  es: (wps, spw) => 206.84 - 0.6 * (spw * 100) - 1.02 * wps,
  // Kandel & Moles (1958).
  fr: (wps, spw) => 207 - 1.015 * wps - 73.6 * spw,
  // Flesch–Douma (1960).
  nl: (wps, spw) => 206.835 - 0.93 * wps - 77 * spw,
  // Oborneva (2006).
  ru: (wps, spw) => 206.835 - 1.3 * wps - 60.1 * spw,
};

export function readabilityBand(score: number): ReadabilityBand {
  if (score >= 90) return 'very_easy';
  if (score >= 80) return 'easy';
  if (score >= 70) return 'fairly_easy';
  if (score >= 60) return 'standard';
  if (score >= 50) return 'fairly_difficult';
  if (score >= 30) return 'difficult';
  return 'very_difficult';
}

function counts(text: string, lang: ReadabilityLang): Counts {
  const words = wordsOf(text);
  let syllables = 0;
  for (const word of words) syllables += countSyllables(word, lang);
  return { words: words.length, sentences: sentencesOf(text).length, syllables };
}

/**
 * The text's reading ease in its language. The score is kept to Flesch's 0..100 scale: a
 * formula gives more for a line of one-syllable words and less than 0 for legal prose, and
 * neither says more to an editor than "very easy" or "very difficult".
 */
export function readability(text: string, lang: ReadabilityLang): Readability {
  const { words, sentences, syllables } = counts(text, lang);
  if (words === 0) return { score: 0, words, sentences, syllables, band: 'very_difficult' };
  const raw = FORMULAS[lang](words / Math.max(1, sentences), syllables / words);
  const score = Math.round(Math.min(100, Math.max(0, raw)) * 10) / 10;
  return { score, words, sentences, syllables, band: readabilityBand(score) };
}
