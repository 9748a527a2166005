import { z } from 'zod';
import { LANGS } from '../locales.ts';
import { SITE_LINKS, type SiteLink } from '../site/site-links.ts';
import { productView } from './billing.ts';

export { SITE_LINKS, type SiteLink };

import { endpoint } from './endpoint.ts';

// Issue 23: the public site. The server reads what a public address shows (content, the
// catalog's plans, the fleet) into one `SitePage`; the same components render it on the
// server (app/entry-server.tsx, HTML first) and in the browser (hydrated, or fetched by the
// app through `siteEndpoints.page` when it moves to a public page without a reload).

const lang = z.enum(LANGS);

/** An entry of a text's table of contents (its `##` and `###` headings). */
const tocEntry = z.object({ depth: z.number().int(), id: z.string(), text: z.string() });

/** A written text as a page shows it: sanitized HTML made when it was saved. */
const siteText = z.object({
  title: z.string(),
  summary: z.string(),
  html: z.string(),
  toc: z.array(tocEntry),
});
export type SiteText = z.infer<typeof siteText>;

const link = z.object({ name: z.string(), path: z.string() });
export type SiteLinkItem = z.infer<typeof link>;

const image = z.object({
  src: z.string(),
  /** The image and its narrower copies, for the browser to pick by screen. */
  srcset: z.string(),
  alt: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});

const postCard = z.object({
  title: z.string(),
  path: z.string(),
  summary: z.string(),
  published_at: z.string().nullable(),
  reading_minutes: z.number().int(),
  category: link.nullable(),
  cover: image.nullable(),
});
export type PostCard = z.infer<typeof postCard>;

const articleCard = z.object({ title: z.string(), path: z.string(), summary: z.string() });
export type ArticleCard = z.infer<typeof articleCard>;

const faq = z.object({
  title: z.string(),
  questions: z.array(z.object({ question: z.string(), html: z.string() })),
});
export type SiteFaq = z.infer<typeof faq>;

/** Plans as the order page offers them, in the page language's currency. */
const pricing = z.object({
  currency: z.string(),
  plans: z.array(productView),
  /** The order page's address; a plan's button adds `?plan={product_id}`. */
  order_path: z.string(),
});
export type SitePricing = z.infer<typeof pricing>;

const fleetCity = z.object({
  name: z.string(),
  servers: z.number().int(),
  online: z.number().int(),
});
const fleetCountry = z.object({
  code: z.string(),
  name: z.string(),
  servers: z.number().int(),
  online: z.number().int(),
  cities: z.array(fleetCity),
});
export type SiteFleetCountry = z.infer<typeof fleetCountry>;
const fleet = z.object({
  countries: z.array(fleetCountry),
  servers: z.number().int(),
  online: z.number().int(),
});
export type SiteFleet = z.infer<typeof fleet>;

const helpCategory = z.object({
  name: z.string(),
  path: z.string(),
  description: z.string(),
  articles: z.array(articleCard),
  children: z.array(
    z.object({
      name: z.string(),
      path: z.string(),
      description: z.string(),
      articles: z.array(articleCard),
    }),
  ),
});
export type SiteHelpCategory = z.infer<typeof helpCategory>;

/** What a public address shows, by kind. */
export const siteBody = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('home'),
    pricing,
    fleet,
    posts: z.array(postCard),
    articles: z.array(articleCard),
    faq: faq.nullable(),
  }),
  z.object({ kind: z.literal('pricing'), text: siteText, pricing, faq: faq.nullable() }),
  z.object({ kind: z.literal('servers'), text: siteText, fleet }),
  z.object({ kind: z.literal('download'), text: siteText }),
  z.object({ kind: z.literal('page'), text: siteText }),
  z.object({
    kind: z.literal('blog'),
    /** All posts, a category's or a tag's. */
    filter: z.object({ type: z.enum(['all', 'category', 'tag']), name: z.string() }),
    description: z.string(),
    posts: z.array(postCard),
    categories: z.array(link),
    page: z.number().int(),
    pages: z.number().int(),
  }),
  z.object({
    kind: z.literal('post'),
    text: siteText,
    published_at: z.string().nullable(),
    updated_at: z.string(),
    reading_minutes: z.number().int(),
    author: z.string().nullable(),
    category: link.nullable(),
    tags: z.array(link),
    cover: image.nullable(),
    related: z.array(postCard),
  }),
  z.object({ kind: z.literal('help'), categories: z.array(helpCategory), faq: faq.nullable() }),
  z.object({
    kind: z.literal('help_category'),
    category: helpCategory,
    breadcrumbs: z.array(link),
  }),
  z.object({
    kind: z.literal('article'),
    text: siteText,
    /** The text "was this helpful?" votes for. */
    translation_id: z.number().int(),
    updated_at: z.string(),
    breadcrumbs: z.array(link),
    related: z.array(articleCard),
  }),
  z.object({ kind: z.literal('faq'), faq }),
  z.object({ kind: z.literal('not_found') }),
]);
export type SiteBody = z.infer<typeof siteBody>;
export type SiteKind = SiteBody['kind'];

/** What every public page carries besides its body: its language, links and search tags. */
export const sitePage = z.object({
  lang,
  /** The languages switched on, for the language switch. */
  langs: z.array(lang),
  path: z.string(),
  links: z.record(z.enum(SITE_LINKS), z.string()),
  /** Set when the page's language has no text yet and this is the default language's. */
  fallback_from: lang.nullable(),
  head: z.object({
    title: z.string(),
    description: z.string(),
    /** Absolute. */
    canonical: z.string(),
    /** The page in each language that has it, and `x-default`; absolute. */
    alternates: z.array(z.object({ hreflang: z.string(), href: z.string() })),
    image: z.string().nullable(),
    type: z.enum(['website', 'article']),
    noindex: z.boolean(),
  }),
  body: siteBody,
});
export type SitePage = z.infer<typeof sitePage>;

/** What a public address answers: a page (200 or 404) or where it moved to (301). */
export const siteAnswer = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('page'),
    status: z.union([z.literal(200), z.literal(404)]),
    page: sitePage,
  }),
  z.object({ kind: z.literal('moved'), to: z.string() }),
]);
export type SiteAnswer = z.infer<typeof siteAnswer>;

export const sitePath = z
  .string({ error: 'input_errors.field_is_invalid' })
  .max(512, { error: 'input_errors.field_is_invalid' })
  .regex(/^\/[a-z]{2}(\/[^?#]*)?$/, { error: 'input_errors.field_is_invalid' });

export const siteEndpoints = {
  page: endpoint({
    method: 'GET',
    base: 'public',
    path: '/site/page',
    access: 'public',
    tag: 'site',
    summary: 'What a public address of the site shows (the app renders it without a reload)',
    query: z.object({ path: sitePath }),
    response: siteAnswer,
  }),
  links: endpoint({
    method: 'GET',
    base: 'public',
    path: '/site/links',
    access: 'public',
    tag: 'site',
    summary: "The addresses of the site's own pages in a language (header and footer)",
    query: z.object({ lang }),
    response: z.object({ links: z.record(z.enum(SITE_LINKS), z.string()) }),
  }),
} as const;

/**
 * What the server hands the app's server entry to render one page (DESIGN: the server loads
 * the built entry through this one narrow function and never imports app code).
 */
export interface SiteRenderInput {
  page: SitePage;
  /** Absolute origin, for links that must be absolute. */
  origin: string;
}

export interface SiteRendered {
  /** Inside `<head>`: title, meta, links, JSON-LD. */
  head: string;
  /** The `#root` element's inner HTML; its islands carry their own props (app/site/island.tsx). */
  body: string;
}

export type SiteRender = (input: SiteRenderInput) => SiteRendered | Promise<SiteRendered>;
