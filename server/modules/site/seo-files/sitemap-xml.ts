import type { SitemapUrl } from './public-pages.ts';

// The sitemaps protocol (sitemaps.org 0.9) with Google's hreflang alternates (xhtml:link).
// Built as text: every value is an absolute URL or a date, escaped on the way in.

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';

/** Characters XML 1.0 cannot carry at all (C0 controls but tab and line ends, FFFE, FFFF). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: they are what it finds
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Text without the characters no XML document may hold (staff's text may have them). */
export function xmlSafe(text: string): string {
  return text.replace(NOT_XML, '');
}

export function escapeXml(text: string): string {
  return xmlSafe(text)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/** W3C datetime, to the second. */
const w3cDate = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

const lastmod = (date: Date | null) => (date ? `<lastmod>${w3cDate(date)}</lastmod>` : '');

const document = (body: string[]) =>
  ['<?xml version="1.0" encoding="UTF-8"?>', ...body, ''].join('\n');

/** The index naming each language's sitemap. */
export function sitemapIndexXml(
  sitemaps: readonly { loc: string; lastmod: Date | null }[],
): string {
  return document([
    `<sitemapindex xmlns="${SITEMAP_NS}">`,
    ...sitemaps.map(
      (entry) => `<sitemap><loc>${escapeXml(entry.loc)}</loc>${lastmod(entry.lastmod)}</sitemap>`,
    ),
    '</sitemapindex>',
  ]);
}

export function urlsetXml(urls: readonly SitemapUrl[]): string {
  return document([
    `<urlset xmlns="${SITEMAP_NS}" xmlns:xhtml="${XHTML_NS}">`,
    ...urls.map((url) =>
      [
        `<url><loc>${escapeXml(url.loc)}</loc>${lastmod(url.lastmod)}`,
        ...url.alternates.map(
          (alternate) =>
            `<xhtml:link rel="alternate" hreflang="${escapeXml(alternate.hreflang)}" href="${escapeXml(alternate.href)}"/>`,
        ),
        '</url>',
      ].join(''),
    ),
    '</urlset>',
  ]);
}
