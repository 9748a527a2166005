import { eq } from 'drizzle-orm';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { ContentKind } from '#shared/content/content-values.ts';
import {
  categoryPath,
  contentPath,
  sectionPath,
  sitemapPath,
  tagPath,
} from '#shared/content/public-paths.ts';
import { slugify } from '#shared/content/slugify.ts';
import {
  articleEndpoints,
  helpCategoryEndpoints,
  postEndpoints,
} from '#shared/contracts/admin/content.ts';
import { LANGS, type Lang } from '#shared/locales.ts';
import {
  contentCategories,
  contentCategoryTranslations,
  contentItems,
  contentTags,
  contentTranslations,
} from '../../../db/schema/index.ts';
import { endpointClient } from '../../../test/api-client.ts';
import { createTestApp } from '../../../test/test-app.ts';
import { signedInUser } from '../../../test/test-sessions.ts';
import { seedDemoContent } from '../../content/demo-content.ts';
import { FEED_SIZE, SITE_NAME } from './blog-feed.ts';

// Issue 23 "Search engines": the sitemaps, the blog's feeds and robots.txt, read from the
// demo content and from items staff write, published, schedule and take down meanwhile.

const ORIGIN = 'https://vpn.example';
const { app } = await createTestApp({ APP_URL: ORIGIN });
await seedDemoContent(app.db);
const api = endpointClient(app);
const editor = await signedInUser(app, { role: 'ADMIN', name: 'Ada Editor' });
const as = { cookie: editor.cookie };

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';

let serial = 0;
const fresh = (stem: string) => `${stem}-${Date.now().toString(36)}-${++serial}`;
const absolute = (path: string) => ORIGIN + path;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name) => ['sitemap', 'url', 'xhtml:link', 'item', 'entry', 'category'].includes(name),
});

// biome-ignore lint/suspicious/noExplicitAny: a parsed document's shape is checked by the test
function parseXml(body: string): any {
  expect(XMLValidator.validate(body)).toBe(true);
  return parser.parse(body);
}

interface SitemapEntry {
  loc: string;
  lastmod: string | undefined;
  alternates: Map<string, string>;
}

async function fetchXml(url: string, type = 'application/xml; charset=utf-8') {
  const answer = await app.inject({ url });
  expect(answer.statusCode, answer.body).toBe(200);
  expect(answer.headers['content-type']).toBe(type);
  expect(answer.headers['cache-control']).toBe('public, max-age=300');
  return parseXml(answer.body);
}

async function sitemap(lang: Lang): Promise<SitemapEntry[]> {
  const { urlset } = await fetchXml(sitemapPath(lang));
  expect(urlset['@xmlns']).toBe(SITEMAP_NS);
  expect(urlset['@xmlns:xhtml']).toBe(XHTML_NS);
  return (urlset.url ?? []).map(
    (url: { loc: string; lastmod?: string; 'xhtml:link'?: Record<string, string>[] }) => {
      const links = url['xhtml:link'] ?? [];
      for (const link of links) expect(link['@rel']).toBe('alternate');
      return {
        loc: url.loc,
        lastmod: url.lastmod,
        alternates: new Map(links.map((link) => [link['@hreflang'], link['@href']])),
      };
    },
  );
}

const locs = async (lang: Lang) => (await sitemap(lang)).map((entry) => entry.loc);

/** The absolute address of every live item of a language, as the database has them. */
async function itemUrls(lang: Lang): Promise<string[]> {
  const rows = await app.db
    .select({ kind: contentItems.kind, slug: contentTranslations.slug })
    .from(contentTranslations)
    .innerJoin(contentItems, eq(contentItems.id, contentTranslations.itemId))
    .where(eq(contentTranslations.lang, lang));
  return rows.map((row) => absolute(contentPath(row.kind as ContentKind, lang, row.slug)));
}

async function createPost(
  lang: Lang,
  url: string,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const answer = await api(postEndpoints.create, {
    ...as,
    body: { lang, name: `Post ${url}`, url, contents: 'A post.', state: 'published', ...extra },
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.data.item.id;
}

async function savePost(id: number, lang: Lang, url: string, extra: Record<string, unknown>) {
  const answer = await api(postEndpoints.update, {
    ...as,
    body: { id, lang, name: `Post ${url}`, url, contents: 'A post.', ...extra },
  });
  expect(answer.status, answer.text).toBe(200);
}

const setTranslation = (itemId: number, values: Partial<typeof contentTranslations.$inferInsert>) =>
  app.db.update(contentTranslations).set(values).where(eq(contentTranslations.itemId, itemId));

/** Where robots.txt lets a crawler go, read as Google and Bing do: longest rule wins. */
function allowedBy(robots: string, path: string): boolean {
  const rules = robots
    .split('\n')
    .map((line) => /^(Allow|Disallow):\s*(\S+)$/.exec(line))
    .flatMap((match) => (match ? [{ allow: match[1] === 'Allow', pattern: match[2] ?? '' }] : []));
  let best: { allow: boolean; length: number } | undefined;
  for (const { allow, pattern } of rules) {
    const anchored = pattern.endsWith('$');
    const body = (anchored ? pattern.slice(0, -1) : pattern)
      .split('*')
      .map((part) => part.replace(/[.?+^${}()|[\]\\/]/g, '\\$&'))
      .join('.*');
    if (!new RegExp(`^${body}${anchored ? '$' : ''}`).test(path)) continue;
    if (!best || pattern.length > best.length || (pattern.length === best.length && allow)) {
      best = { allow, length: pattern.length };
    }
  }
  return best?.allow ?? true;
}

describe('the sitemap index', () => {
  it('names one sitemap per language, at absolute addresses', async () => {
    const { sitemapindex } = await fetchXml(sitemapPath());
    expect(sitemapindex['@xmlns']).toBe(SITEMAP_NS);
    expect(sitemapindex.sitemap.map((entry: { loc: string }) => entry.loc)).toEqual(
      LANGS.map((lang) => absolute(sitemapPath(lang))),
    );
    for (const entry of sitemapindex.sitemap) expect(entry.lastmod).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});

describe.each(LANGS)('the %s sitemap', (lang) => {
  it('lists every public page of the language once, absolute, with its alternates', async () => {
    const entries = await sitemap(lang);
    const all = entries.map((entry) => entry.loc);
    expect(new Set(all).size).toBe(all.length);
    for (const loc of all) {
      expect(loc === `${ORIGIN}/${lang}` || loc.startsWith(`${ORIGIN}/${lang}/`), loc).toBe(true);
    }

    // The demo has every item in every language, each category holds a live item and
    // every tag is on a live post: all of them are listed, and nothing else.
    const categories = await app.db
      .select({ kind: contentCategories.kind, slug: contentCategoryTranslations.slug })
      .from(contentCategoryTranslations)
      .innerJoin(
        contentCategories,
        eq(contentCategories.id, contentCategoryTranslations.categoryId),
      )
      .where(eq(contentCategoryTranslations.lang, lang));
    const tags = await app.db
      .select({ slug: contentTags.slug })
      .from(contentTags)
      .where(eq(contentTags.lang, lang));
    expect(categories.length).toBeGreaterThan(0);
    expect(tags.length).toBeGreaterThan(0);
    const expected = [
      ...(['home', 'blog', 'help'] as const).map((section) => absolute(sectionPath(section, lang))),
      ...(await itemUrls(lang)),
      ...categories.map((row) =>
        absolute(categoryPath(row.kind === 'blog' ? 'blog' : 'help', lang, row.slug)),
      ),
      ...tags.map((row) => absolute(tagPath(lang, row.slug))),
    ];
    expect([...all].sort()).toEqual([...expected].sort());

    for (const entry of entries) {
      expect(entry.alternates.get(lang), entry.loc).toBe(entry.loc);
      for (const [hreflang, href] of entry.alternates) {
        if (hreflang === 'x-default') expect(href).toBe(entry.alternates.get('en'));
        else expect(href.startsWith(`${ORIGIN}/${hreflang}`), href).toBe(true);
      }
      // A tag is a language's own: only English ones have an English (x-default) version.
      const isTag = entry.loc.includes('/blog/tag/');
      if (!isTag || lang === 'en') expect(entry.alternates.has('x-default'), entry.loc).toBe(true);
    }
  });

  it("dates an item by its translation's last change, and a list by its newest item", async () => {
    const posts = await app.db
      .select({ slug: contentTranslations.slug, updatedAt: contentTranslations.updatedAt })
      .from(contentTranslations)
      .innerJoin(contentItems, eq(contentItems.id, contentTranslations.itemId))
      .where(eq(contentTranslations.lang, lang));
    const entries = await sitemap(lang);
    const dateOf = (path: string) => entries.find((entry) => entry.loc === absolute(path))?.lastmod;
    for (const entry of entries) {
      expect(entry.lastmod, entry.loc).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
    const seconds = (date: Date) => date.toISOString().replace(/\.\d+Z$/, 'Z');
    for (const post of posts) {
      const path = contentPath('post', lang, post.slug);
      if (dateOf(path)) expect(dateOf(path), path).toBe(seconds(post.updatedAt));
    }
    const newestPost = entries
      .filter((entry) => /\/blog\/[^/]+$/.test(entry.loc) && !entry.loc.includes('/tag/'))
      .map((entry) => entry.lastmod ?? '')
      .sort()
      .at(-1);
    expect(newestPost).toBeDefined();
    expect(dateOf(sectionPath('blog', lang))).toBe(newestPost);
    expect((dateOf(sectionPath('home', lang)) ?? '') >= (newestPost ?? '')).toBe(true);
  });
});

describe('the addresses in a sitemap', () => {
  it.each(LANGS)(
    'of %s are pages the site serves',
    async (lang) => {
      for (const loc of await locs(lang)) {
        const answer = await app.inject({
          url: new URL(loc).pathname,
          headers: { accept: 'text/html' },
        });
        expect(answer.statusCode, loc).toBe(200);
        // The site's own page, which names this address as the one to index.
        const canonical = /<link[^>]*rel="canonical"[^>]*href="([^"]*)"/.exec(answer.body)?.[1];
        expect(canonical, loc).toBe(loc);
        expect(answer.body, loc).not.toMatch(/<meta[^>]*name="robots"[^>]*noindex/);
      }
    },
    60_000,
  );
});

describe('what a sitemap and a feed list is what is live now', () => {
  it('lists a draft only once it is published, with its tags', async () => {
    const url = fresh('draft-post');
    const tag = fresh('Draft tag');
    const id = await createPost('en', url, { state: 'draft', tags: [tag] });
    const path = absolute(contentPath('post', 'en', url));
    const tagUrl = absolute(tagPath('en', slugify(tag)));
    expect(await locs('en')).not.toContain(path);
    expect(await locs('en')).not.toContain(tagUrl);
    expect(await feedLinks('en')).not.toContain(path);

    await savePost(id, 'en', url, { state: 'published', tags: [tag] });
    expect(await locs('en')).toContain(path);
    expect(await locs('en')).toContain(tagUrl);
    expect((await feedLinks('en'))[0]).toBe(path);
  });

  it('lists a scheduled post once its time has come, without a restart', async () => {
    const url = fresh('scheduled-post');
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    const id = await createPost('en', url, { state: 'scheduled', publish_at: inAnHour });
    const path = absolute(contentPath('post', 'en', url));
    expect(await locs('en')).not.toContain(path);
    expect(await feedLinks('en')).not.toContain(path);

    // Due, and the clock has not come round to publish it yet: it is live all the same.
    const due = new Date(Date.now() - 60_000);
    await setTranslation(id, { publishAt: due });
    expect(await locs('en')).toContain(path);
    expect(await feedLinks('en')).toContain(path);
    const { feed: atom } = await feed('en', 'atom');
    const entry = atom.entry.find((row: { id: string }) => row.id === path);
    expect(entry?.published).toBe(due.toISOString());
  });

  it('drops a post once it is unpublished, or past its end', async () => {
    const taken = fresh('taken-down');
    const ending = fresh('ending');
    const takenId = await createPost('en', taken);
    const endingId = await createPost('en', ending);
    const paths = [taken, ending].map((slug) => absolute(contentPath('post', 'en', slug)));
    expect(await locs('en')).toEqual(expect.arrayContaining(paths));

    await setTranslation(takenId, { state: 'unpublished' });
    await setTranslation(endingId, { unpublishAt: new Date(Date.now() - 1_000) });
    const now = await locs('en');
    for (const path of paths) expect(now).not.toContain(path);
    const links = await feedLinks('en');
    for (const path of paths) expect(links).not.toContain(path);
  });

  it('lists a page in a language only where it has a translation of its own', async () => {
    const url = fresh('english-only');
    const id = await createPost('en', url);
    const english = absolute(contentPath('post', 'en', url));
    const entry = (await sitemap('en')).find((row) => row.loc === english);
    expect(Object.fromEntries(entry?.alternates ?? [])).toEqual({
      en: english,
      'x-default': english,
    });
    // The Spanish blog shows the English text meanwhile, but that is not for an index.
    const spanishBefore = await sitemap('es');
    expect(spanishBefore.some((row) => row.alternates.get('en') === english)).toBe(false);
    expect(await feedLinks('es')).not.toContain(english);

    const spanishUrl = fresh('solo-en-ingles');
    await savePost(id, 'es', spanishUrl, { state: 'published' });
    const spanish = absolute(contentPath('post', 'es', spanishUrl));
    const translated = (await sitemap('es')).find((row) => row.loc === spanish);
    expect(Object.fromEntries(translated?.alternates ?? [])).toEqual({
      en: english,
      es: spanish,
      'x-default': english,
    });
    expect(await feedLinks('es')).toContain(spanish);
  });

  it('lists a help-center category once it holds a live article of the language', async () => {
    const slug = fresh('categoria-vacia');
    const created = await api(helpCategoryEndpoints.create, {
      ...as,
      body: { lang: 'es', name: 'Categoría nueva', url: slug },
    });
    expect(created.status, created.text).toBe(201);
    const categoryId = created.data.category.category_id;
    const path = absolute(categoryPath('help', 'es', slug));
    expect(await locs('es')).not.toContain(path);

    const article = await api(articleEndpoints.create, {
      ...as,
      body: {
        lang: 'es',
        name: 'Un artículo',
        url: fresh('articulo'),
        contents: 'Texto.',
        state: 'draft',
        category_id: categoryId,
      },
    });
    expect(article.status, article.text).toBe(201);
    expect(await locs('es')).not.toContain(path);

    await setTranslation(article.data.item.id, { state: 'published' });
    expect(await locs('es')).toContain(path);
    // Not in another language: the category has no name there, nor an article.
    expect(await locs('en')).not.toContain(absolute(categoryPath('help', 'en', slug)));
  });
});

async function feed(lang: Lang, format: 'rss' | 'atom') {
  const type = format === 'rss' ? 'application/rss+xml' : 'application/atom+xml';
  return fetchXml(`/${lang}/blog/${format}.xml`, `${type}; charset=utf-8`);
}

async function feedLinks(lang: Lang): Promise<string[]> {
  const { rss } = await feed(lang, 'rss');
  return (rss.channel.item ?? []).map((item: { link: string }) => item.link);
}

describe('the blog feeds', () => {
  it.each(LANGS)(
    'carry the newest posts of %s, newest first, in RSS 2.0 and Atom',
    async (lang) => {
      const { rss } = await feed(lang, 'rss');
      expect(rss['@version']).toBe('2.0');
      expect(rss.channel.language).toBe(lang);
      expect(rss.channel.link).toBe(absolute(sectionPath('blog', lang)));
      const items = rss.channel.item ?? [];
      expect(items.length).toBeGreaterThan(0);
      expect(items.length).toBeLessThanOrEqual(FEED_SIZE);
      const dates = items.map((item: { pubDate: string }) => Date.parse(item.pubDate));
      expect(dates).toEqual([...dates].sort((a, b) => b - a));
      for (const item of items) {
        expect(item.link.startsWith(`${ORIGIN}/${lang}/blog/`), item.link).toBe(true);
        expect(item.guid['#text']).toBe(item.link);
        expect(item.title).not.toBe('');
        expect(item.author).toBeTruthy();
      }

      const { feed: atom } = await feed(lang, 'atom');
      expect(atom['@xmlns']).toBe('http://www.w3.org/2005/Atom');
      const entries = atom.entry ?? [];
      expect(entries.map((entry: { id: string }) => entry.id)).toEqual(
        items.map((item: { link: string }) => item.link),
      );
      for (const entry of entries) {
        expect(Date.parse(entry.published)).not.toBeNaN();
        expect(Date.parse(entry.updated)).toBeGreaterThanOrEqual(Date.parse(entry.published));
        expect(entry.author.name).toBeTruthy();
      }
    },
  );

  it('signs a post with its author, else the site, and names its category', async () => {
    const { rss } = await feed('es', 'rss');
    const [demo] = (rss.channel.item ?? []).filter(
      (item: { link: string }) =>
        item.link === absolute(contentPath('post', 'es', 'plan-familiar')),
    );
    expect(demo?.author).toBe(SITE_NAME);
    expect(demo?.category).toEqual(['Novedades']);

    const url = fresh('firmado');
    await createPost('es', url);
    const { feed: atom } = await feed('es', 'atom');
    const [newest] = atom.entry;
    expect(newest.id).toBe(absolute(contentPath('post', 'es', url)));
    expect(newest.author.name).toBe('Ada Editor');
  });

  it('holds at most twenty posts, the newest, all of its own language', async () => {
    const written: string[] = [];
    for (let n = 0; n < FEED_SIZE + 2; n += 1) {
      const url = fresh(`nueva-${n}`);
      await createPost('es', url);
      written.unshift(absolute(contentPath('post', 'es', url)));
    }
    await createPost('en', fresh('english-newest'));
    expect(await feedLinks('es')).toEqual(written.slice(0, FEED_SIZE));
    const { feed: atom } = await feed('es', 'atom');
    expect(atom.entry.map((entry: { id: string }) => entry.id)).toEqual(
      written.slice(0, FEED_SIZE),
    );
  });
});

describe('robots.txt', () => {
  it('keeps crawlers out of the private screens and the API, and names the sitemap', async () => {
    const answer = await app.inject({ url: '/robots.txt' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    const robots = answer.body;
    expect(robots.trim().split('\n').at(-1)).toBe(`Sitemap: ${absolute(sitemapPath())}`);
    const hidden = [
      'signin',
      'signin?continue=%2Fen%2Fdashboard',
      'signup',
      'password/forgot',
      'password/reset?token=x',
      'account',
      'account/profile',
      'billing/invoices',
      'dashboard',
      'download',
      'order-received/thanks',
      'admin',
      'admin/content/pages',
    ];
    for (const lang of LANGS) {
      for (const path of hidden) expect(allowedBy(robots, `/${lang}/${path}`), path).toBe(false);
    }
    expect(allowedBy(robots, '/api/public/v1/site/page')).toBe(false);
    // What looks like a private screen's name but is public content stays open.
    for (const path of ['/en', '/en/download-vpn', '/en/help-center/category/account-basics']) {
      expect(allowedBy(robots, path), path).toBe(true);
    }
    for (const lang of LANGS) {
      for (const loc of await locs(lang)) {
        expect(allowedBy(robots, new URL(loc).pathname), loc).toBe(true);
      }
    }
  });
});

describe('an address of no language', () => {
  it.each(['/sitemap-xx.xml', '/xx/blog/rss.xml', '/xx/blog/atom.xml'])(
    '%s answers 404',
    async (url) => {
      const answer = await app.inject({ url });
      expect(answer.statusCode).toBe(404);
      expect(answer.json().code).toBe('not_found');
    },
  );

  it('nor of a language switched off', async () => {
    const { app: narrow } = await createTestApp({ APP_URL: ORIGIN, LOCALES: 'en,es' });
    const index = await narrow.inject({ url: sitemapPath() });
    expect(parseXml(index.body).sitemapindex.sitemap).toHaveLength(2);
    expect((await narrow.inject({ url: sitemapPath('fr') })).statusCode).toBe(404);
    expect((await narrow.inject({ url: '/fr/blog/rss.xml' })).statusCode).toBe(404);
    const robots = (await narrow.inject({ url: '/robots.txt' })).body;
    expect(robots).toContain('Disallow: /es/signin$');
    expect(robots).not.toContain('/fr/');
  });
});
