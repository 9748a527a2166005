import type { ContentKind } from './content-values.ts';

// Where each piece of content is on the public site, per language (issue 23 serves them;
// the demo's links, the editor's preview of a search result and the sitemap agree on it).

export function contentPath(kind: ContentKind, lang: string, slug: string): string {
  switch (kind) {
    case 'page':
    case 'static_page':
      return `/${lang}/${slug}`;
    case 'post':
      return `/${lang}/blog/${slug}`;
    case 'article':
      return `/${lang}/help-center/article/${slug}`;
    case 'faq':
      return `/${lang}/faq/${slug}`;
  }
}

export function categoryPath(kind: 'blog' | 'help', lang: string, slug: string): string {
  return kind === 'blog'
    ? `/${lang}/blog/category/${slug}`
    : `/${lang}/help-center/category/${slug}`;
}

export function tagPath(lang: string, slug: string): string {
  return `/${lang}/blog/tag/${slug}`;
}

/** A section's own page: the home, the blog's first page, the help center. */
export function sectionPath(section: 'home' | 'blog' | 'help', lang: string): string {
  if (section === 'home') return `/${lang}`;
  return section === 'blog' ? `/${lang}/blog` : `/${lang}/help-center`;
}

/** The blog's feed in a language: RSS 2.0 or Atom 1.0. */
export function blogFeedPath(format: 'rss' | 'atom', lang: string): string {
  return `/${lang}/blog/${format}.xml`;
}

/** The sitemap index, or one language's sitemap. */
export function sitemapPath(lang?: string): string {
  return lang === undefined ? '/sitemap.xml' : `/sitemap-${lang}.xml`;
}
