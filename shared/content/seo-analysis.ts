import { type Readability, type ReadabilityLang, readability, wordsOf } from './readability.ts';
import {
  DESCRIPTION_CHARS,
  DESCRIPTION_MAX_PIXELS,
  descriptionPixels,
  TITLE_CHARS,
  TITLE_MAX_PIXELS,
  titlePixels,
} from './text-width.ts';
import { transliterate } from './transliterate.ts';

// The SEO check the content editor shows as staff type and `POST /{key}/analyze` answers: a
// list of checks, each passed or not with a reason the app translates, and a score. It runs
// in the browser on every keystroke, so it reads the Markdown with a small line reader of its
// own instead of the renderer's parser (markdown.ts), and every scan is linear in the length
// of the text: a body may be 200 KB and the reader must not stall on a pathological one.

export type ContentLang = ReadabilityLang;

export interface SeoInput {
  lang: ContentLang;
  /** The SEO title if set, else the item's title. */
  title: string;
  /** Meta description ('' when missing). */
  description: string;
  /** '' for main pages without a slug. */
  slug: string;
  /** Focus keyphrase ('' when none). */
  keyphrase: string;
  /** The body source in GitHub-flavoured Markdown ('' for none). */
  markdown: string;
  /** Host name of our own site, for telling internal from outbound links. */
  siteHost?: string;
}

export const SEO_CHECK_IDS = [
  'title_length',
  'title_width',
  'description_length',
  'description_width',
  'keyphrase_set',
  'keyphrase_in_title',
  'keyphrase_in_slug',
  'keyphrase_in_first_paragraph',
  'keyphrase_in_heading',
  'headings_in_order',
  'images_alt',
  'internal_links',
  'outbound_links',
  'readability',
  'text_length',
] as const;
export type SeoCheckId = (typeof SEO_CHECK_IDS)[number];

/** Every reason a check can give, so the app can test that each has a translation. */
export const SEO_REASONS = {
  title_length: ['missing', 'short', 'long', 'good'],
  title_width: ['missing', 'too_wide', 'fits'],
  description_length: ['missing', 'short', 'long', 'good'],
  description_width: ['missing', 'too_wide', 'fits'],
  keyphrase_set: ['missing', 'set'],
  keyphrase_in_title: ['no_keyphrase', 'not_found', 'found'],
  keyphrase_in_slug: ['no_keyphrase', 'not_found', 'found'],
  keyphrase_in_first_paragraph: ['no_keyphrase', 'no_paragraph', 'not_found', 'found'],
  keyphrase_in_heading: ['no_keyphrase', 'no_headings', 'not_found', 'found'],
  headings_in_order: ['none', 'h1_in_body', 'skipped_level', 'in_order'],
  images_alt: ['none', 'missing_alt', 'all_have_alt'],
  internal_links: ['none', 'found'],
  outbound_links: ['none', 'found'],
  readability: ['no_text', 'hard', 'easy'],
  text_length: ['short', 'good'],
} as const satisfies Record<SeoCheckId, readonly string[]>;
export type SeoReason<Id extends SeoCheckId = SeoCheckId> = (typeof SEO_REASONS)[Id][number];

/**
 * How much each check counts towards the score. What a search result shows (title,
 * description) and what it is found for (the keyphrase) count double; linking out helps a
 * little and is not always right for a help article, so it counts half.
 */
export const SEO_WEIGHTS: Record<SeoCheckId, number> = {
  title_length: 2,
  title_width: 2,
  description_length: 2,
  description_width: 2,
  keyphrase_set: 2,
  keyphrase_in_title: 2,
  keyphrase_in_slug: 2,
  keyphrase_in_first_paragraph: 2,
  keyphrase_in_heading: 2,
  headings_in_order: 1,
  images_alt: 1,
  internal_links: 1,
  outbound_links: 0.5,
  readability: 1,
  text_length: 1,
};

/** A body this long at least gives search engines enough to rank it for something. */
export const TEXT_MIN_WORDS = 300;
/** Flesch's "standard" band and above: plain English (or Spanish, …) for a general reader. */
export const READABILITY_MIN_SCORE = 60;

export interface SeoCheck {
  id: SeoCheckId;
  passed: boolean;
  /** i18n key of the reason, under seo.checks.<id>.<reason> */
  reason: string;
  /** Values the message interpolates, e.g. { chars: 72, max: 60 } */
  values: Record<string, number | string>;
  weight: number;
}

export interface SeoAnalysis {
  /** 0..100: the weighted share of passed checks, rounded. */
  score: number;
  checks: SeoCheck[];
  readability: Readability;
}

// Reading Markdown ----------------------------------------------------------------------

export interface MarkdownLink {
  text: string;
  url: string;
}

export interface MarkdownImage {
  alt: string;
  url: string;
}

/** What the checks need of a body: its outline, its links and images, and its prose. */
export interface MarkdownOutline {
  headings: { level: number; text: string }[];
  links: MarkdownLink[];
  images: MarkdownImage[];
  /** The plain text of the first paragraph with a word in it ('' when there is none). */
  firstParagraph: string;
  /** The prose without Markdown: one line per paragraph, heading, list item or table row. */
  text: string;
}

type BlockKind = 'paragraph' | 'heading' | 'list' | 'table';

interface Block {
  kind: BlockKind;
  level: number;
  lines: string[];
}

const FENCE_OPEN = /^\s*(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^\s*(`{3,}|~{3,})\s*$/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const TABLE_DELIMITER = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)/;
const TASK_BOX = /^\[[ xX]\][ \t]+/;
const DEFINITION = /^ {0,3}\[([^\]^][^\]]{0,998})\]:[ \t]*(\S+)/;
const QUOTE_MARKERS = /^(?: {0,3}>[ \t]?)+/;
// CommonMark's HTML blocks that a Markdown author writes: comments and block-level tags.
// The renderer drops raw HTML, so nothing in them is shown.
const HTML_BLOCK =
  /^ {0,3}<(?:!--|\/?(?:address|article|aside|blockquote|details|div|dl|figure|footer|form|h[1-6]|header|hr|iframe|li|nav|ol|p|pre|script|section|style|summary|table|tbody|td|th|thead|tr|ul)(?:[\s/>]|$))/i;

/**
 * A backslash-escaped punctuation character, moved to the private use area while the reader
 * works so that `\[` or `\*` is never taken for syntax, and put back at the end.
 */
const ESCAPED = /\\([!-/:-@[-`{-~])/g;
const protect = (text: string) =>
  text.replace(ESCAPED, (_match, char: string) => String.fromCharCode(0xe000 + char.charCodeAt(0)));
const unprotect = (text: string) =>
  text.replace(/[\ue000-\ue07f]/g, (char) => String.fromCharCode(char.charCodeAt(0) - 0xe000));

const normalizeLabel = (label: string) => label.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The lines of a body grouped into blocks, without code, HTML, rules and definitions. Block
 * quotes are read as their content. Indented code (four spaces) is read as text: the editor's
 * toolbar writes fences, and telling it from a list item's indented paragraph needs the whole
 * of CommonMark's list rules.
 */
function blocksOf(markdown: string, definitions: Map<string, string>): Block[] {
  const blocks: Block[] = [];
  let current: Block | undefined;
  let fence: { char: string; length: number } | undefined;
  let inComment = false;
  let inHtml = false;
  let lastClosed: Block | undefined;
  const close = () => {
    if (current) lastClosed = current;
    current = undefined;
  };
  const open = (kind: BlockKind, level: number, line: string) => {
    current = { kind, level, lines: [line] };
    blocks.push(current);
  };

  for (const raw of markdown.split('\n')) {
    const line = raw.replace(QUOTE_MARKERS, '');
    if (fence) {
      const closing = FENCE_CLOSE.exec(line)?.[1];
      if (closing?.[0] === fence.char && closing.length >= fence.length) fence = undefined;
      continue;
    }
    if (inComment) {
      if (line.includes('-->')) inComment = false;
      continue;
    }
    if (line.trim() === '') {
      inHtml = false;
      close();
      continue;
    }
    if (inHtml) continue;

    const opening = FENCE_OPEN.exec(line);
    if (opening?.[1] && !(opening[1][0] === '`' && opening[2]?.includes('`'))) {
      fence = { char: opening[1][0] ?? '`', length: opening[1].length };
      close();
      continue;
    }
    const heading = ATX_HEADING.exec(line);
    if (heading) {
      close();
      open('heading', heading[1]?.length ?? 1, withoutClosingHashes(heading[2] ?? ''));
      close();
      continue;
    }
    if (current?.kind === 'paragraph' && line.includes('|') && TABLE_DELIMITER.test(line)) {
      // The paragraph's last line was a table's header row.
      const header = current.lines.pop() ?? '';
      if (current.lines.length === 0) blocks.pop();
      open('table', 0, header);
      continue;
    }
    const underline = SETEXT_UNDERLINE.exec(line)?.[1];
    if (underline && current?.kind === 'paragraph') {
      current.kind = 'heading';
      current.level = underline[0] === '=' ? 1 : 2;
      close();
      continue;
    }
    if (THEMATIC_BREAK.test(line)) {
      close();
      continue;
    }
    if (HTML_BLOCK.test(line)) {
      close();
      if (line.trimStart().startsWith('<!--')) inComment = !line.includes('-->');
      else inHtml = true;
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      close();
      open('list', 0, line.slice(item[0].length).replace(TASK_BOX, ''));
      continue;
    }
    if (!current) {
      const definition = DEFINITION.exec(line);
      if (definition?.[1] && definition[2]) {
        const label = normalizeLabel(definition[1]);
        if (!definitions.has(label)) definitions.set(label, definition[2].replace(/^<|>$/g, ''));
        continue;
      }
      // An indented paragraph right after a list item is that item's (a loose list).
      if (lastClosed?.kind === 'list' && /^(?: {2}|\t)/.test(line)) {
        open('list', 0, line);
        continue;
      }
      open('paragraph', 0, line);
      continue;
    }
    // A paragraph's next line, a list item's lazy continuation, or a table's next row.
    current.lines.push(line);
  }
  return blocks;
}

/** `## Title ##` is "Title": a closing run of # after a space is not part of the heading. */
function withoutClosingHashes(text: string): string {
  const trimmed = text.trimEnd();
  let end = trimmed.length;
  while (end > 0 && trimmed[end - 1] === '#') end -= 1;
  if (end === 0) return '';
  if (end < trimmed.length && /[ \t]/.test(trimmed[end - 1] ?? '')) return trimmed.slice(0, end);
  return trimmed;
}

/** Each [ and ( of a text with the index of the bracket that closes it (-1 for none). */
function matchBrackets(text: string): Int32Array {
  const closes = new Int32Array(text.length).fill(-1);
  const squares: number[] = [];
  const rounds: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '[') squares.push(index);
    else if (char === '(') rounds.push(index);
    else if (char === ']') {
      const start = squares.pop();
      if (start !== undefined) closes[start] = index;
    } else if (char === ')') {
      const start = rounds.pop();
      if (start !== undefined) closes[start] = index;
    }
  }
  return closes;
}

/**
 * A text without its code spans: a run of backticks opens one that the next run of the same
 * length closes (CommonMark), found with one look-up per run rather than a scan per run.
 */
function withoutCodeSpans(text: string): string {
  const runs: { start: number; length: number }[] = [];
  for (const match of text.matchAll(/`+/g)) {
    runs.push({ start: match.index, length: match[0].length });
  }
  const nextOfLength = new Int32Array(runs.length).fill(-1);
  const seen = new Map<number, number>();
  for (let index = runs.length - 1; index >= 0; index--) {
    const length = runs[index]?.length ?? 0;
    nextOfLength[index] = seen.get(length) ?? -1;
    seen.set(length, index);
  }
  let out = '';
  let from = 0;
  for (let index = 0; index < runs.length; ) {
    const closing = nextOfLength[index] ?? -1;
    const run = runs[index];
    const end = runs[closing];
    if (!run || !end) {
      index += 1;
      continue;
    }
    out += `${text.slice(from, run.start)} `;
    from = end.start + end.length;
    index = closing + 1;
  }
  return out + text.slice(from);
}

const AUTOLINK = /<([a-z][a-z0-9+.-]{1,31}:[^\s<>]*)>/iy;
const INLINE_HTML = /<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>/iy;
const BARE_URL = /(?:https?:\/\/|www\.)[^\s<]+/gi;
const TRAILING_PUNCTUATION = new Set([...'.,:;!?\'")]*_~']);

/** A GFM literal autolink ends before trailing punctuation ("see https://x.example."). */
function trimUrl(url: string): string {
  let end = url.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(url[end - 1] ?? '')) end -= 1;
  return url.slice(0, end);
}

/** Inline Markdown to plain text, noting the links and images it holds. */
function readInline(
  source: string,
  definitions: Map<string, string>,
  found: { links: MarkdownLink[]; images: MarkdownImage[] },
): string {
  const text = withoutCodeSpans(protect(source));
  const closes = matchBrackets(text);

  /** Where a link's [text] at `open`..`close` points, and where its syntax ends. */
  const target = (open: number, close: number, end: number) => {
    const after = text[close + 1];
    const closing = closes[close + 1] ?? -1;
    if (after === '(' && closing !== -1 && closing < end) {
      const inside = text.slice(close + 2, closing).trim();
      const url = inside.startsWith('<')
        ? inside.slice(1, Math.max(1, inside.indexOf('>')))
        : (inside.split(/\s/, 1)[0] ?? '');
      return { url: unprotect(url), next: closing + 1 };
    }
    if (definitions.size === 0) return undefined;
    if (after === '[' && closing !== -1 && closing < end) {
      const label = normalizeLabel(text.slice(close + 2, closing) || text.slice(open + 1, close));
      const url = definitions.get(label);
      return url === undefined ? undefined : { url, next: closing + 1 };
    }
    const url = definitions.get(normalizeLabel(text.slice(open + 1, close)));
    return url === undefined ? undefined : { url, next: close + 1 };
  };

  const literal = (from: number, to: number, inLink: boolean) =>
    text.slice(from, to).replace(BARE_URL, (url) => {
      if (!inLink) {
        const trimmed = trimUrl(url);
        found.links.push({
          text: '',
          url: trimmed.startsWith('www.') ? `http://${trimmed}` : trimmed,
        });
      }
      return ' ';
    });

  const read = (start: number, end: number, inLink: boolean): string => {
    let out = '';
    let from = start;
    let index = start;
    while (index < end) {
      const char = text[index];
      const image = char === '!' && text[index + 1] === '[';
      if (image || char === '[') {
        const open = image ? index + 1 : index;
        const close = closes[open] ?? -1;
        const to = close !== -1 && close < end ? target(open, close, end) : undefined;
        if (to) {
          out += literal(from, index, inLink);
          const inner = read(open + 1, close, true);
          if (image) {
            found.images.push({ alt: clean(inner), url: to.url });
            out += ' ';
          } else {
            found.links.push({ text: clean(inner), url: to.url });
            out += inner;
          }
          index = to.next;
          from = index;
          continue;
        }
      } else if (char === '<') {
        AUTOLINK.lastIndex = index;
        INLINE_HTML.lastIndex = index;
        const autolink = AUTOLINK.exec(text);
        const tag = autolink ? null : INLINE_HTML.exec(text);
        if (autolink || tag) {
          out += literal(from, index, inLink);
          if (autolink?.[1] && !inLink) found.links.push({ text: '', url: unprotect(autolink[1]) });
          index += (autolink ?? tag)?.[0].length ?? 1;
          out += ' ';
          from = index;
          continue;
        }
      }
      index += 1;
    }
    return out + literal(from, end, inLink);
  };

  return clean(read(0, text.length, false));
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** `&amp;`, `&#233;`, `&#xE9;` as the characters they stand for; other named ones as a space. */
function decodeEntity(_match: string, name: string): string {
  if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? ' ';
  const hex = name[1] === 'x' || name[1] === 'X';
  const code = Number.parseInt(name.slice(hex ? 2 : 1), hex ? 16 : 10);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
}

/** Plain text from what is left of inline Markdown: no emphasis, footnote marks or entities. */
function clean(text: string): string {
  return unprotect(
    text
      .replace(/\[\^[^\]\s[]*\]:?/g, ' ')
      .replace(/[*~]+/g, '')
      .replace(/(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu, '')
      .replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, decodeEntity)
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

/** The outline, links, images and prose of a Markdown body, read line by line. */
export function readMarkdown(markdown: string): MarkdownOutline {
  const definitions = new Map<string, string>();
  const blocks = blocksOf(markdown.replace(/\r\n?/g, '\n'), definitions);
  const found = { links: [] as MarkdownLink[], images: [] as MarkdownImage[] };
  const headings: MarkdownOutline['headings'] = [];
  const lines: string[] = [];
  let firstParagraph = '';
  for (const block of blocks) {
    if (block.kind === 'table') {
      // The pipes between cells are syntax (an escaped one, \|, is text).
      for (const row of block.lines) {
        lines.push(readInline(protect(row).replaceAll('|', ' '), definitions, found));
      }
      continue;
    }
    const plain = readInline(block.lines.join('\n'), definitions, found);
    if (block.kind === 'heading') headings.push({ level: block.level, text: plain });
    if (block.kind === 'paragraph' && !firstParagraph && wordsOf(plain).length > 0) {
      firstParagraph = plain;
    }
    lines.push(plain);
  }
  return {
    headings,
    links: found.links,
    images: found.images,
    firstParagraph,
    text: lines.filter((line) => line !== '').join('\n'),
  };
}

// Keyphrase -----------------------------------------------------------------------------

/** Words compared without case or accents ("Café" is "cafe", "Ёлка" is "елка"). */
function foldedWords(text: string): string[] {
  return (
    text
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Words a keyphrase's words may have between them ("VPN for fast streaming" has "VPN streaming"). */
const KEYPHRASE_GAP = 2;

/**
 * Whether `words` hold every word of `phrase`, in order, with at most KEYPHRASE_GAP others
 * between two of them. Walks the places each phrase word can be reached at, so it is linear
 * in the text for a given phrase.
 */
export function containsPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  const [first, ...rest] = phrase;
  if (first === undefined) return false;
  let reached: number[] = [];
  for (const [index, word] of words.entries()) if (word === first) reached.push(index);
  for (const next of rest) {
    const following: number[] = [];
    let last = -1;
    for (const at of reached) {
      for (let index = Math.max(at + 1, last + 1); index <= at + 1 + KEYPHRASE_GAP; index++) {
        if (words[index] === next) {
          following.push(index);
          last = index;
        }
      }
    }
    if (following.length === 0) return false;
    reached = following;
  }
  return reached.length > 0;
}

// Links ---------------------------------------------------------------------------------

const withoutWww = (host: string) => host.toLowerCase().replace(/^www\./, '');

/**
 * Internal: our own pages (a path, an anchor, a `content:` link, a relative address, or an
 * absolute one on our host); outbound: any other web address. Mail and phone links are
 * neither.
 */
function linkKind(url: string, siteHost: string | undefined): 'internal' | 'outbound' | 'other' {
  const href = url.trim();
  if (href === '') return 'other';
  if (/^(?:content:|[#?]|\/(?!\/))/i.test(href)) return 'internal';
  const web = /^(?:https?:)?\/\//i.test(href);
  if (!web) return /^[a-z][a-z0-9+.-]*:/i.test(href) ? 'other' : 'internal';
  try {
    const host = new URL(href, 'https://relative.invalid').hostname;
    return siteHost && withoutWww(host) === withoutWww(siteHost) ? 'internal' : 'outbound';
  } catch {
    return 'outbound';
  }
}

// Checks --------------------------------------------------------------------------------

function check<Id extends SeoCheckId>(
  id: Id,
  passed: boolean,
  reason: SeoReason<Id>,
  values: Record<string, number | string> = {},
): SeoCheck {
  return { id, passed, reason, values, weight: SEO_WEIGHTS[id] };
}

/** Text as a search result shows it: runs of white space as one space, none at the ends. */
const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
const charCount = (text: string) => [...text].length;

function lengthCheck(
  id: 'title_length' | 'description_length',
  text: string,
  limits: { min: number; max: number },
): SeoCheck {
  const chars = charCount(text);
  const values = { chars, min: limits.min, max: limits.max };
  if (chars === 0) return check(id, false, 'missing', values);
  if (chars < limits.min) return check(id, false, 'short', values);
  if (chars > limits.max) return check(id, false, 'long', values);
  return check(id, true, 'good', values);
}

function widthCheck(
  id: 'title_width' | 'description_width',
  text: string,
  pixels: number,
  max: number,
): SeoCheck {
  const values = { pixels, max };
  if (text === '') return check(id, false, 'missing', values);
  return pixels > max ? check(id, false, 'too_wide', values) : check(id, true, 'fits', values);
}

type KeyphraseId =
  | 'keyphrase_in_title'
  | 'keyphrase_in_slug'
  | 'keyphrase_in_first_paragraph'
  | 'keyphrase_in_heading';

function keyphraseCheck(id: KeyphraseId, keyphrase: string, found: boolean): SeoCheck {
  if (keyphrase === '') return check(id, false, 'no_keyphrase');
  return found
    ? check(id, true, 'found', { keyphrase })
    : check(id, false, 'not_found', { keyphrase });
}

function headingsCheck(headings: MarkdownOutline['headings']): SeoCheck {
  if (headings.length === 0) return check('headings_in_order', true, 'none');
  const h1 = headings.find((heading) => heading.level === 1);
  // The item's title is the page's one H1; a second one confuses the outline.
  if (h1) return check('headings_in_order', false, 'h1_in_body', { heading: h1.text });
  let previous = 1;
  for (const heading of headings) {
    if (heading.level > previous + 1) {
      return check('headings_in_order', false, 'skipped_level', {
        from: previous,
        to: heading.level,
        heading: heading.text,
      });
    }
    previous = heading.level;
  }
  return check('headings_in_order', true, 'in_order', { headings: headings.length });
}

function bodyChecks(
  outline: MarkdownOutline,
  reading: Readability,
  keyphrase: { text: string; words: string[] },
  siteHost: string | undefined,
): SeoCheck[] {
  const checks: SeoCheck[] = [];
  const { headings, images, links, firstParagraph } = outline;

  if (keyphrase.text !== '' && firstParagraph === '') {
    checks.push(check('keyphrase_in_first_paragraph', false, 'no_paragraph'));
  } else {
    const found = containsPhrase(foldedWords(firstParagraph), keyphrase.words);
    checks.push(keyphraseCheck('keyphrase_in_first_paragraph', keyphrase.text, found));
  }

  if (keyphrase.text !== '' && headings.length === 0) {
    checks.push(check('keyphrase_in_heading', false, 'no_headings'));
  } else {
    const found = headings.some((heading) =>
      containsPhrase(foldedWords(heading.text), keyphrase.words),
    );
    checks.push(keyphraseCheck('keyphrase_in_heading', keyphrase.text, found));
  }

  checks.push(headingsCheck(headings));

  const missingAlt = images.filter((image) => image.alt.trim() === '').length;
  if (images.length === 0) checks.push(check('images_alt', true, 'none'));
  else if (missingAlt > 0) {
    checks.push(
      check('images_alt', false, 'missing_alt', { missing: missingAlt, images: images.length }),
    );
  } else checks.push(check('images_alt', true, 'all_have_alt', { images: images.length }));

  const kinds = links.map((link) => linkKind(link.url, siteHost));
  const internal = kinds.filter((kind) => kind === 'internal').length;
  const outbound = kinds.filter((kind) => kind === 'outbound').length;
  checks.push(
    internal > 0
      ? check('internal_links', true, 'found', { links: internal })
      : check('internal_links', false, 'none', { links: 0 }),
  );
  checks.push(
    outbound > 0
      ? check('outbound_links', true, 'found', { links: outbound })
      : check('outbound_links', false, 'none', { links: 0 }),
  );

  const score = { score: reading.score, min: READABILITY_MIN_SCORE };
  if (reading.words === 0) checks.push(check('readability', false, 'no_text', score));
  else if (reading.score >= READABILITY_MIN_SCORE) {
    checks.push(check('readability', true, 'easy', score));
  } else checks.push(check('readability', false, 'hard', score));

  const length = { words: reading.words, min: TEXT_MIN_WORDS };
  checks.push(
    reading.words >= TEXT_MIN_WORDS
      ? check('text_length', true, 'good', length)
      : check('text_length', false, 'short', length),
  );
  return checks;
}

/**
 * The SEO checks of one translation as the editor has it now. Checks that read the body are
 * left out when there is no body (a main page's SEO settings); the slug check when there is
 * no slug.
 */
export function analyzeSeo(input: SeoInput): SeoAnalysis {
  const title = collapse(input.title);
  const description = collapse(input.description);
  const keyphraseWords = foldedWords(input.keyphrase);
  const keyphrase = {
    text: keyphraseWords.length > 0 ? collapse(input.keyphrase) : '',
    words: keyphraseWords,
  };
  const hasBody = input.markdown.trim() !== '';
  const outline = hasBody ? readMarkdown(input.markdown) : undefined;
  const reading = readability(outline?.text ?? '', input.lang);

  const checks: SeoCheck[] = [
    lengthCheck('title_length', title, TITLE_CHARS),
    widthCheck('title_width', title, titlePixels(title), TITLE_MAX_PIXELS),
    lengthCheck('description_length', description, DESCRIPTION_CHARS),
    widthCheck(
      'description_width',
      description,
      descriptionPixels(description),
      DESCRIPTION_MAX_PIXELS,
    ),
    keyphrase.text === ''
      ? check('keyphrase_set', false, 'missing')
      : check('keyphrase_set', true, 'set', { keyphrase: keyphrase.text }),
    keyphraseCheck(
      'keyphrase_in_title',
      keyphrase.text,
      containsPhrase(foldedWords(title), keyphrase.words),
    ),
  ];

  if (input.slug.trim() !== '') {
    // Slugs are Latin: a Russian keyphrase is looked for as it would be transliterated too.
    const slugWords = foldedWords(input.slug);
    const found =
      containsPhrase(slugWords, keyphrase.words) ||
      containsPhrase(slugWords, foldedWords(transliterate(input.keyphrase)));
    checks.push(keyphraseCheck('keyphrase_in_slug', keyphrase.text, found));
  }

  if (outline) checks.push(...bodyChecks(outline, reading, keyphrase, input.siteHost));

  let total = 0;
  let passed = 0;
  for (const item of checks) {
    total += item.weight;
    if (item.passed) passed += item.weight;
  }
  return { score: Math.round((100 * passed) / total), checks, readability: reading };
}
