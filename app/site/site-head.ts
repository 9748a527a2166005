import type { TFunction } from 'i18next';
import type { SitePage } from '#shared/contracts/site.ts';
import { jsonLdOf } from './json-ld.ts';

// The page's `<head>`: what search engines and link previews read (issue 23, "Search
// engines"). Strings are escaped for HTML; JSON-LD is escaped so nothing can close its script.

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** JSON inside a `<script>` element: no `<` can end it early, no line separator breaks it. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

const SITE_NAME_KEY = 'app.name';

/** The title and description a page shows, with the section's defaults where staff set none. */
export function pageTitles(page: SitePage, t: TFunction): { title: string; description: string } {
  const { body, head } = page;
  const site = t(SITE_NAME_KEY);
  const defaults: Record<string, [string, string]> = {
    home: [t('public_site.titles.home'), t('public_site.descriptions.home')],
    blog: [t('public_site.titles.blog'), t('public_site.descriptions.blog')],
    help: [t('public_site.titles.help_center'), t('public_site.descriptions.help_center')],
    not_found: [t('public_site.titles.not_found'), ''],
  };
  const [defaultTitle, defaultDescription] = defaults[body.kind] ?? ['', ''];
  const title = head.title || defaultTitle;
  return {
    title: body.kind === 'home' || title.includes(site) ? title : `${title} | ${site}`,
    description: head.description || defaultDescription,
  };
}

export function siteHead(page: SitePage, t: TFunction, origin: string): string {
  const { head } = page;
  const { title, description } = pageTitles(page, t);
  const tags: string[] = [`<title>${escapeHtml(title)}</title>`];
  const meta = (attr: 'name' | 'property', key: string, value: string) =>
    tags.push(`<meta ${attr}="${key}" content="${escapeHtml(value)}" />`);
  if (description) meta('name', 'description', description);
  if (head.noindex) meta('name', 'robots', 'noindex, follow');
  tags.push(`<link rel="canonical" href="${escapeHtml(head.canonical)}" />`);
  for (const alternate of head.alternates) {
    tags.push(
      `<link rel="alternate" hreflang="${escapeHtml(alternate.hreflang)}" href="${escapeHtml(alternate.href)}" />`,
    );
  }
  meta('property', 'og:type', head.type);
  meta('property', 'og:site_name', t(SITE_NAME_KEY));
  meta('property', 'og:title', title);
  if (description) meta('property', 'og:description', description);
  meta('property', 'og:url', head.canonical);
  meta('property', 'og:locale', page.lang);
  meta('name', 'twitter:card', head.image ? 'summary_large_image' : 'summary');
  meta('name', 'twitter:title', title);
  if (description) meta('name', 'twitter:description', description);
  if (head.image) {
    meta('property', 'og:image', head.image);
    meta('name', 'twitter:image', head.image);
  }
  for (const data of jsonLdOf(page, t, origin)) {
    tags.push(`<script type="application/ld+json">${scriptJson(data)}</script>`);
  }
  return tags.join('');
}
