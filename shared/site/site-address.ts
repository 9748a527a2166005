import { RESERVED_PAGE_SLUGS } from '../content/reserved-slugs.ts';
import { isLang, type Lang } from '../locales.ts';

// Which addresses are the public site's (rendered on the server) and which the app's own
// screens (sign-in, account, admin …: index.html, the browser's router decides). The public
// sections' addresses are those of shared/content/public-paths.ts.

/** Static pages the site is built around, by the key staff cannot change. */
export const STATIC_KEYS = {
  pricing: 'pricing',
  features: 'features',
  servers: 'servers',
  download: 'download',
  what_is_vpn: 'what-is-a-vpn',
  terms: 'terms-of-service',
  privacy: 'privacy-policy',
} as const;

/**
 * Reserved first segments that are the site's own: `/{lang}/pricing` and the like name a
 * static page by its key (answered by its page or a move to its slug in that language).
 */
const KEY_SEGMENTS: ReadonlySet<string> = new Set(['pricing', 'features', 'servers']);

export type SiteAddress =
  | { type: 'home'; lang: Lang }
  | { type: 'key'; lang: Lang; key: string }
  | { type: 'page'; lang: Lang; slug: string }
  | { type: 'blog'; lang: Lang; page: number }
  | { type: 'blog_category'; lang: Lang; slug: string; page: number }
  | { type: 'blog_tag'; lang: Lang; slug: string; page: number }
  | { type: 'post'; lang: Lang; slug: string }
  | { type: 'help'; lang: Lang }
  | { type: 'help_category'; lang: Lang; slug: string }
  | { type: 'article'; lang: Lang; slug: string }
  | { type: 'faq'; lang: Lang; slug: string }
  /** Under a site section, but nothing there can exist: a 404 page. */
  | { type: 'unknown'; lang: Lang };

const SEGMENT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A list's page number from `?page=`: 1 unless a whole number above 1. */
export function pageNumber(search: URLSearchParams): number {
  const page = Number(search.get('page'));
  return Number.isInteger(page) && page > 1 && page <= 10_000 ? page : 1;
}

/**
 * The site address a path names, or null when the path is the app's (or no language's).
 * `langs` are the languages switched on.
 */
export function siteAddress(
  pathname: string,
  search: URLSearchParams,
  langs: readonly string[],
): SiteAddress | null {
  const [, first, ...rest] = pathname.replace(/\/+$/, '').split('/');
  if (!isLang(first) || !langs.includes(first)) return null;
  const lang = first;
  const parts = rest.filter((part) => part !== '');
  if (parts.length !== rest.length) return { type: 'unknown', lang };
  const [section, a, b, ...more] = parts;
  if (section === undefined) return { type: 'home', lang };
  const page = pageNumber(search);
  const slug = (value: string | undefined) => (value && SEGMENT.test(value) ? value : null);
  switch (section) {
    case 'blog': {
      if (a === undefined) return { type: 'blog', lang, page };
      if ((a === 'category' || a === 'tag') && slug(b) && more.length === 0) {
        return {
          type: a === 'category' ? 'blog_category' : 'blog_tag',
          lang,
          slug: b as string,
          page,
        };
      }
      if (slug(a) && b === undefined) return { type: 'post', lang, slug: a };
      return { type: 'unknown', lang };
    }
    case 'help-center': {
      if (a === undefined) return { type: 'help', lang };
      if ((a === 'category' || a === 'article') && slug(b) && more.length === 0) {
        return { type: a === 'category' ? 'help_category' : 'article', lang, slug: b as string };
      }
      return { type: 'unknown', lang };
    }
    case 'faq':
      return slug(a) && b === undefined
        ? { type: 'faq', lang, slug: a as string }
        : { type: 'unknown', lang };
  }
  if (a !== undefined) return null;
  if (KEY_SEGMENTS.has(section)) return { type: 'key', lang, key: section };
  if (RESERVED_PAGE_SLUGS.has(section)) return null;
  return slug(section) ? { type: 'page', lang, slug: section } : { type: 'unknown', lang };
}
