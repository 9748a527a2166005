import GithubSlugger from 'github-slugger';
import type { Element, Root } from 'hast';
import { toString as hastText } from 'hast-util-to-string';
import type { Root as MdastRoot } from 'mdast';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';

// Content bodies are Markdown, rendered once on save to the HTML that is stored beside the
// source and served as it is (issue 22, "safe by construction"), and rendered the same way
// in the editor's preview, so what staff see is what visitors get. Raw HTML in the source is
// never passed through (remark-rehype drops it), and the HTML tree is sanitized with
// GitHub's rules before anything of ours is added to it, so no input can produce a script,
// an event handler or a `javascript:` address.

/** A heading of the table of contents: `##` and `###`, with the anchor they link to. */
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

function isExternal(href: string, siteHost: string | undefined): boolean {
  if (!/^https?:\/\//i.test(href)) return false;
  try {
    return new URL(href).hostname !== siteHost;
  } catch {
    return true;
  }
}

/** Our additions, after sanitizing: heading anchors, link and image attributes, the outline. */
function finish(options: RenderOptions, out: { toc: TocEntry[]; images: string[] }) {
  return (tree: Root) => {
    const slugger = new GithubSlugger();
    visit(tree, 'element', (node: Element) => {
      if (/^h[1-6]$/.test(node.tagName)) {
        const text = hastText(node).trim();
        const id = slugger.slug(text) || `section-${out.toc.length + 1}`;
        node.properties.id = id;
        if (node.tagName === 'h2' || node.tagName === 'h3') {
          out.toc.push({ depth: node.tagName === 'h2' ? 2 : 3, id, text });
        }
      } else if (node.tagName === 'code') {
        // A fence's info string becomes the class: only a language name, nothing else.
        const [name] = (node.properties.className as string[] | undefined) ?? [];
        node.properties.className = name && /^language-[\w+#.-]{1,30}$/.test(name) ? [name] : [];
      } else if (node.tagName === 'a') {
        const href = String(node.properties.href ?? '');
        if (isExternal(href, options.siteHost)) node.properties.rel = ['noopener', 'nofollow'];
      } else if (node.tagName === 'img') {
        const src = String(node.properties.src ?? '');
        out.images.push(src);
        node.properties.loading = 'lazy';
        node.properties.decoding = 'async';
        const box = options.imageBox?.(src);
        if (box) {
          node.properties.width = box.width;
          node.properties.height = box.height;
        }
      }
    });
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
const toSafeHtmlTree = unified().use(remarkRehype).use(rehypeSanitize, schema).freeze();
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
  finish(options, out)(tree);
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
