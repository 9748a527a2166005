import type { SnippetPart } from '#shared/contracts/help-search.ts';

// What a visitor typed, made safe for text search, and what ts_headline answers, made into
// plain text parts. Pure, so both are tested on their own.

/** Words searched at most: a question, not a pasted page. */
const MAX_WORDS = 12;
/** A word longer than this is no word (PostgreSQL refuses lexemes past 2 KB anyway). */
const MAX_WORD_LENGTH = 60;

/** The marks ts_headline puts around each hit; the text they wrap is escaped before. */
export const HIT_START = '<mark>';
export const HIT_END = '</mark>';

/**
 * The words of a query: runs of letters (with their combining marks) and digits. Nothing
 * else survives, so no operator, quote, colon or star of the tsquery syntax can reach it.
 */
export function searchWords(q: string): string[] {
  const words = q.normalize('NFC').match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
  return words.slice(0, MAX_WORDS).map((word) => word.slice(0, MAX_WORD_LENGTH));
}

/** A query as staff see it among the misses: trimmed, lowercased, single-spaced. */
export function missQuery(q: string): string {
  return q.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The character references a rendered body holds (hex, as the renderer writes, or named). */
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

function decodeReferences(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (reference, name: string) => {
    if (name.startsWith('#')) {
      const code =
        name[1] === 'x' || name[1] === 'X'
          ? Number.parseInt(name.slice(2), 16)
          : Number.parseInt(name.slice(1), 10);
      // No NUL, surrogate or beyond Unicode: the reference stays as it was written.
      const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
      return valid ? String.fromCodePoint(code) : reference;
    }
    return NAMED[name.toLowerCase()] ?? reference;
  });
}

/**
 * A headline of the body's text (tags stripped, its `<` still escaped) as parts: the hits
 * between the marks, the rest around them, references decoded, spaces collapsed. The marks
 * cannot come from the text, whose every `<` is a reference.
 */
export function snippetParts(headline: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let hit = false;
  for (const piece of headline.split(/(<mark>|<\/mark>)/)) {
    if (piece === HIT_START || piece === HIT_END) {
      hit = piece === HIT_START;
      continue;
    }
    const text = decodeReferences(piece).replace(/\s+/g, ' ');
    if (text === '') continue;
    const last = parts.at(-1);
    if (last && last.hit === hit) last.text = `${last.text}${text}`.replace(/\s+/g, ' ');
    else parts.push({ text, hit });
  }
  const first = parts[0];
  if (first) first.text = first.text.trimStart();
  const end = parts.at(-1);
  if (end) end.text = end.text.trimEnd();
  return parts.filter((part) => part.text !== '');
}
