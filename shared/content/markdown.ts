import GithubSlugger, { slug as bareSlug } from 'github-slugger';
import type { Element, Root } from 'hast';
import { toString as hastText } from 'hast-util-to-string';
import type { Root as MdastRoot } from 'mdast';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { SKIP, visit } from 'unist-util-visit';

// Content bodies are Markdown, rendered once on save to the HTML that is stored beside the
// source and served as it is (issue 22, "safe by construction"), and rendered the same way
// in the editor's preview, so what staff see is what visitors get. Raw HTML in the source is
// never passed through (remark-rehype drops it), and the HTML tree is sanitized with
// GitHub's rules before anything of ours is added to it, so no input can produce a script,
// an event handler or a `javascript:` address.
//
// Every id in a body starts `user-content-` (the sanitizer's prefix, GitHub's too), headings'
// and footnotes' alike, so none can be the page's own (`main`, `root`...); a link within the
// body (`#install-it`, a footnote's) gets the same prefix, so it reaches its target.

/** A heading of the table of contents: `##` and `###`, with the id of the element. */
export interface TocEntry {
  depth: 2 | 3;
  id: string;
  text: string;
}

export interface RenderedMarkdown {
  html: string;
  toc: TocEntry[];
  words: number;
  readingMinutes: number;
  /** Every image address the body shows (the media library keeps its uses from them). */
  images: string[];
}

/** What the site knows of an image it serves: its box, so the page does not shift. */
export interface ImageBox {
  width: number;
  height: number;
}

export interface RenderOptions {
  /** Our own host: links to it are internal and keep their search-engine value. */
  siteHost?: string;
  /** The size of an image by its address (our media library's), when known. */
  imageBox?: (src: string) => ImageBox | undefined;
  /** Rewrites a link's address before it is sanitized (the demo's `content:` links). */
  rewriteHref?: (href: string) => string;
}

/** Words a minute: reading speed on screen, a little slower for Russian's longer words. */
const WORDS_PER_MINUTE: Record<string, number> = { ru: 180 };
const DEFAULT_WPM = 220;

/** GitHub's rules, with links and images narrowed to web addresses (and mail for links). */
const schema: SanitizeSchema = {
  ...defaultSchema,
  protocols: { ...defaultSchema.protocols, href: ['http', 'https', 'mailto'], src: ['https'] },
};

/** What the sanitizer puts before every id (and `aria-describedby`) of a body. */
const ID_PREFIX = defaultSchema.clobberPrefix ?? 'user-content-';

/** The host an address without one is read against: a reserved name, never a real one. */
const RELATIVE_HOST = 'relative.invalid';

/**
 * The web address a browser goes to from a link or image on our pages: a relative one stays
 * on `RELATIVE_HOST`, a protocol-relative one (`//host/path`) takes the page's https.
 * Undefined for other schemes (mail) and for what no browser would follow.
 */
function webAddress(href: string): URL | undefined {
  try {
    const url = new URL(href, `https://${RELATIVE_HOST}/`);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a link leaves our site: a web address on another host, protocol-relative ones
 * (`//host/path`) included. Relative addresses, fragments and mail are not outbound.
 */
export function isOutbound(href: string, siteHost: string | undefined): boolean {
  const url = webAddress(href);
  if (url) return url.hostname !== RELATIVE_HOST && url.hostname !== siteHost;
  // An address that looks like the web's but does not parse: treated as foreign.
  return /^(?:https?:)?\/\//i.test(href.trim());
}

/** A protocol-relative address (`//host/path`, or a browser's variant of it) as https. */
function withScheme(src: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(src)) return src;
  const url = webAddress(src);
  return url && url.hostname !== RELATIVE_HOST ? url.href : src;
}

/**
 * The hidden heading of a body's footnotes and the label of a link back to a reference, in
 * the body's language: they are part of the stored HTML, which screen readers read aloud.
 */
const FOOTNOTE_WORDS: Record<string, { heading: string; back: string }> = {
  en: { heading: 'Footnotes', back: 'Back to reference' },
  es: { heading: 'Notas al pie', back: 'Volver a la referencia' },
  fr: { heading: 'Notes de bas de page', back: 'Retour à la référence' },
  nl: { heading: 'Voetnoten', back: 'Terug naar verwijzing' },
  ru: { heading: 'Примечания', back: 'Вернуться к ссылке' },
};

/** GFM's footnotes: the section at the end of a body, with its hidden "Footnotes" heading. */
function isFootnotes(node: Element): boolean {
  return node.tagName === 'section' && node.properties.dataFootnotes !== undefined;
}

/** Our additions, after sanitizing: heading anchors, link and image attributes, the outline. */
function finish(options: RenderOptions, lang: string, out: { toc: TocEntry[]; images: string[] }) {
  const words = FOOTNOTE_WORDS[lang] ?? FOOTNOTE_WORDS.en;
  return (tree: Root) => {
    // The ids already there are the footnotes' (the sanitizer has prefixed them): a heading
    // whose slug is one of them takes the next free one.
    const taken = new Set<string>();
    visit(tree, 'element', (node: Element) => {
      if (typeof node.properties.id === 'string') taken.add(node.properties.id);
    });
    const slugger = new GithubSlugger();
    const anchor = (text: string) => {
      // A heading of no letters or digits ("## ???") is a numbered "section".
      const name = bareSlug(text) === '' ? 'section' : text;
      let id: string;
      do id = ID_PREFIX + slugger.slug(name);
      while (taken.has(id));
      taken.add(id);
      return id;
    };
    let inFootnotes = false;
    const decorate = (node: Element) => {
      if (isFootnotes(node)) {
        // Its heading keeps the id its references point to, and neither it nor a heading in
        // a note is part of the outline.
        inFootnotes = true;
        for (const child of node.children) {
          if (child.type === 'element' && child.tagName === 'h2') {
            if (words) child.children = [{ type: 'text', value: words.heading }];
            continue;
          }
          if (child.type === 'element') visit(child, 'element', decorate);
        }
        inFootnotes = false;
        return SKIP;
      }
      if (/^h[1-6]$/.test(node.tagName)) {
        const text = hastText(node).trim();
        const id = anchor(text);
        node.properties.id = id;
        if (!inFootnotes && (node.tagName === 'h2' || node.tagName === 'h3')) {
          out.toc.push({ depth: node.tagName === 'h2' ? 2 : 3, id, text });
        }
      } else if (node.tagName === 'code') {
        // A fence's info string becomes the class: only a language name, nothing else.
        const [name] = (node.properties.className as string[] | undefined) ?? [];
        node.properties.className = name && /^language-[\w+#.-]{1,30}$/.test(name) ? [name] : [];
      } else if (node.tagName === 'a') {
        const href = String(node.properties.href ?? '');
        const backTo = /(\d+(?:-\d+)?)$/.exec(String(node.properties.ariaLabel ?? ''));
        if (node.properties.dataFootnoteBackref !== undefined && backTo && words) {
          node.properties.ariaLabel = `${words.back} ${backTo[1]}`;
        }
        if (href.length > 1 && href.startsWith('#') && !href.startsWith(`#${ID_PREFIX}`)) {
          node.properties.href = `#${ID_PREFIX}${href.slice(1)}`;
        } else if (isOutbound(href, options.siteHost)) {
          node.properties.rel = ['noopener', 'nofollow'];
        }
      } else if (node.tagName === 'img') {
        // An image from another host is shown as the https one it is (http ones are dropped).
        let src = String(node.properties.src ?? '');
        if (src !== '') {
          src = withScheme(src);
          node.properties.src = src;
        }
        out.images.push(src);
        node.properties.loading = 'lazy';
        node.properties.decoding = 'async';
        const box = options.imageBox?.(src);
        if (box) {
          node.properties.width = box.width;
          node.properties.height = box.height;
        }
      }
      return undefined;
    };
    visit(tree, 'element', decorate);
  };
}

/** A link's address in the Markdown tree, rewritten before any HTML exists. */
function rewriteLinks(tree: MdastRoot, rewrite: (href: string) => string) {
  visit(tree, (node) => {
    if (node.type === 'link' || node.type === 'definition') node.url = rewrite(node.url);
  });
}

// The pipeline's parts are made once per process: building them per call costs more than
// rendering a help article.
const parser = unified().use(remarkParse).use(remarkGfm).freeze();
// remark-rehype leaves footnotes' ids bare: the sanitizer prefixes them, as it does any id,
// and `finish` the links to them.
const toSafeHtmlTree = unified()
  .use(remarkRehype, { clobberPrefix: '' })
  .use(rehypeSanitize, schema)
  .freeze();
const stringifier = unified().use(rehypeStringify).freeze();

/** The words of a rendered tree's text (letters and digits of any script). */
export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}

/** Markdown to sanitized HTML, with its outline, length and images. */
export function renderMarkdown(
  markdown: string,
  lang: string,
  options: RenderOptions = {},
): RenderedMarkdown {
  const out = { toc: [] as TocEntry[], images: [] as string[] };
  const markdownTree = parser.parse(markdown);
  if (options.rewriteHref) rewriteLinks(markdownTree, options.rewriteHref);
  const tree = toSafeHtmlTree.runSync(markdownTree) as Root;
  finish(options, lang, out)(tree);
  const html = stringifier.stringify(tree);
  const words = countWords(hastText(tree));
  const wpm = WORDS_PER_MINUTE[lang] ?? DEFAULT_WPM;
  return {
    html,
    toc: out.toc,
    words,
    readingMinutes: words === 0 ? 0 : Math.max(1, Math.round(words / wpm)),
    images: out.images,
  };
}
