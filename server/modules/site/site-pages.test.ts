import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { BlogPosting, BreadcrumbList, WithContext } from 'schema-dts';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SiteAnswer, type SitePage, siteEndpoints } from '#shared/contracts/site.ts';
import { LANGS, type Lang } from '#shared/locales.ts';
import { formatMoney } from '#shared/money.ts';
import {
  contentItems,
  contentMedia,
  contentRedirects,
  contentTranslations,
  products,
  vpnServers,
} from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { endpointClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser } from '../../test/test-sessions.ts';
import { seedDemoCatalog } from '../billing/demo-catalog.ts';
import { seedDemoContent } from '../content/demo-content.ts';
import { SCHEDULED_JOBS } from '../jobs/scheduled-jobs.ts';
import { seedDemoFleet } from '../vpn/demo-fleet.ts';

// Issue 23: every public address answers with the whole page in its HTML (no script needed),
// a real 404 or a 301; what the page shows comes from the content, the catalog and the fleet,
// published-only, and a change reaches the cached page without a restart.

let app: App;
let call: ReturnType<typeof endpointClient>;

/** A built app as `npm run build` leaves it: the page template with its script tags. */
async function builtApp(): Promise<string> {
  const dist = await mkdtemp(join(tmpdir(), 'site-dist-'));
  await writeFile(
    join(dist, 'site.html'),
    [
      '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><!--site-head-->',
      '<script type="module" crossorigin src="/assets/site-abc123.js"></script>',
      '<link rel="modulepreload" crossorigin href="/assets/dep-abc123.js">',
      '<link rel="stylesheet" crossorigin href="/assets/site-abc123.css">',
      '</head><body><div id="root"><!--site-body--></div></body></html>',
    ].join('\n'),
  );
  return dist;
}

beforeAll(async () => {
  ({ app } = await createTestApp({ WEB_DIST_DIR: await builtApp() }));
  call = endpointClient(app);
  await seedDemoCatalog(app.db);
  await seedDemoFleet(app);
  await seedDemoContent(app.db);
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

async function pageAt(path: string): Promise<SitePage> {
  const answer = await call(siteEndpoints.page, { query: { path } });
  expect(answer.status, path).toBe(200);
  const data = answer.data as SiteAnswer;
  if (data.kind !== 'page') throw new Error(`${path} moved to ${data.to}`);
  return data.page;
}

/** A message key of the parts public pages use, shown instead of its text. */
const KEY = '(public_site|site|layout|order|app|footer|language)\\.[a-z_.]+';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The text of the page's `<h1>`, tags stripped. */
function heading(html: string): string | undefined {
  const match = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html);
  return match?.[1]
    ?.replace(/<[^>]+>/g, '')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');
}

function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1] ?? '{}') as Record<string, unknown>,
  );
}

/** A public page's addresses of every kind, in a language, from its own links. */
async function addressesIn(lang: Lang): Promise<string[]> {
  const home = await pageAt(`/${lang}`);
  const blog = await pageAt(home.links.blog);
  const help = await pageAt(home.links.help_center);
  if (blog.body.kind !== 'blog' || help.body.kind !== 'help') throw new Error('sections');
  const post = blog.body.posts[0]?.path ?? '';
  const postPage = await pageAt(post);
  if (postPage.body.kind !== 'post') throw new Error('post');
  const top = help.body.categories[0];
  const child = top?.children[0];
  const article = child?.articles[0]?.path ?? '';
  return [
    `/${lang}`,
    ...Object.values(home.links),
    post,
    blog.body.categories[0]?.path ?? '',
    postPage.body.tags[0]?.path ?? '',
    top?.path ?? '',
    child?.path ?? '',
    article,
  ];
}

describe.each(LANGS)('the public site in %s', (lang) => {
  it('answers every page with 200 and its title, heading and words in the HTML', async () => {
    const addresses = await addressesIn(lang);
    expect(new Set(addresses).size).toBe(addresses.length);
    for (const path of addresses) {
      const response = await get(path);
      expect(response.statusCode, path).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      const html = response.body;
      expect(html, path).toContain(`<html lang="${lang}"`);
      expect(/<title>[^<]+<\/title>/.test(html), path).toBe(true);
      expect(html, path).toMatch(/<meta name="description" content="[^"]{20,}"/);
      expect(html, path).toContain(`<link rel="canonical" href="${app.config.appUrl}${path}"`);
      // Every word is translated: no message key shows instead of its text.
      expect(html, path).not.toMatch(new RegExp(`>${KEY}<`));
      expect(html, path).not.toMatch(new RegExp(`(content|aria-label)="${KEY}"`));
      const page = await pageAt(path);
      const title = 'text' in page.body ? page.body.text.title : undefined;
      if (title) expect(heading(html), path).toBe(title);
      else expect(heading(html)?.length, path).toBeGreaterThan(3);
      expect(page.fallback_from, path).toBeNull();
    }
  });

  it('links each page to its versions in the other languages and x-default', async () => {
    const response = await get(`/${lang}/blog`);
    for (const other of LANGS) {
      expect(response.body).toContain(
        `<link rel="alternate" hreflang="${other}" href="${app.config.appUrl}/${other}/blog"`,
      );
    }
    expect(response.body).toContain(
      `<link rel="alternate" hreflang="x-default" href="${app.config.appUrl}/en/blog"`,
    );
  });

  it('shows the plans of the order page in the language currency, each leading to it', async () => {
    const home = await pageAt(`/${lang}`);
    const response = await get(home.links.pricing);
    const pricing = await pageAt(home.links.pricing);
    if (pricing.body.kind !== 'pricing') throw new Error(pricing.body.kind);
    const plans = pricing.body.pricing.plans;
    expect(plans.length).toBeGreaterThan(1);
    for (const plan of plans) {
      expect(response.body).toContain(`href="/${lang}/order-v2?plan=${plan.product_id}"`);
      const shown = plan.as_monthly_rate ? plan.monthly_amount : plan.amount;
      expect(response.body).toContain(
        escapeHtml(formatMoney({ amount: shown, currency: plan.currency }, lang)),
      );
    }
    const offers = jsonLd(response.body).find((data) => data['@type'] === 'Product');
    expect(offers?.offers).toHaveLength(plans.length);
  });
});

describe('addresses', () => {
  it('answers a real 404 for an unknown address in every section', async () => {
    for (const path of [
      '/en/no-such-page',
      '/en/blog/no-such-post',
      '/en/blog/category/no-such-category',
      '/en/blog/tag/no-such-tag',
      '/en/blog?page=99',
      '/en/help-center/article/no-such-article',
      '/en/help-center/category/no-such-category',
      '/en/faq/no-such-faq',
      '/en/help-center/no/such/thing',
    ]) {
      const response = await get(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.body, path).toContain('Page not found');
      expect(response.body, path).toContain('<meta name="robots" content="noindex, follow"');
    }
  });

  it("moves a static page's fixed name and an old slug to the address now (301)", async () => {
    const home = await pageAt('/en');
    const pricing = await get('/en/pricing');
    expect(pricing.statusCode).toBe(301);
    expect(pricing.headers.location).toBe(home.links.pricing);

    const [post] = await app.db
      .select()
      .from(contentTranslations)
      .where(and(eq(contentTranslations.space, 'post'), eq(contentTranslations.lang, 'en')));
    if (!post) throw new Error('no post');
    await app.db
      .insert(contentRedirects)
      .values({ space: 'post', lang: 'en', fromSlug: 'an-old-address', translationId: post.id });
    const moved = await get('/en/blog/an-old-address');
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(`/en/blog/${post.slug}`);
  });

  it("leaves the app's own screens to the app", async () => {
    for (const path of ['/en/signin', '/en/account/profile', '/en/admin/dashboard', '/en/r/abc']) {
      expect(await app.site.answer(path), path).toBeNull();
    }
    const data = await call(siteEndpoints.page, { query: { path: '/en/account/profile' } });
    expect(data.data).toMatchObject({ kind: 'page', status: 404 });
  });
});

describe('what is public', () => {
  async function postIn(lang: Lang, index = 1) {
    const blog = await pageAt(`/${lang}/blog`);
    if (blog.body.kind !== 'blog') throw new Error('blog');
    const card = blog.body.posts[index];
    if (!card) throw new Error('no post');
    const slug = card.path.split('/').at(-1) ?? '';
    const [row] = await app.db
      .select()
      .from(contentTranslations)
      .where(
        and(
          eq(contentTranslations.space, 'post'),
          eq(contentTranslations.lang, lang),
          eq(contentTranslations.slug, slug),
        ),
      );
    if (!row) throw new Error('no row');
    return { card, row };
  }
  const runClock = () => {
    const job = SCHEDULED_JOBS.find((entry) => entry.name === 'content-clock');
    return job?.run(app);
  };
  const setState = (id: number, values: Partial<typeof contentTranslations.$inferInsert>) =>
    app.db.update(contentTranslations).set(values).where(eq(contentTranslations.id, id));

  it('shows a page missing in a language in English, saying so, never empty', async () => {
    const { row: english } = await postIn('en', 2);
    const [french] = await app.db
      .select()
      .from(contentTranslations)
      .where(
        and(eq(contentTranslations.itemId, english.itemId), eq(contentTranslations.lang, 'fr')),
      );
    if (!french) throw new Error('no french');
    await setState(french.id, { state: 'draft' });
    app.site.purge(['*']);
    const response = await get(`/fr/blog/${english.slug}`);
    expect(response.statusCode).toBe(200);
    expect(heading(response.body)).toBe(english.title);
    expect(response.body).toContain('data-testid="fallback-notice"');
    expect(response.body).toContain(
      `<link rel="canonical" href="${app.config.appUrl}/en/blog/${english.slug}"`,
    );
    expect(response.body).toContain('<meta name="robots" content="noindex, follow"');
    // The French list keeps the post, in English.
    expect((await get('/fr/blog')).body).toContain(`/fr/blog/${english.slug}`);
    await setState(french.id, { state: 'published' });
    app.site.purge(['*']);
  });

  it('never shows a draft or a scheduled text, and shows it at its time without a restart', async () => {
    const { card, row } = await postIn('en');
    expect((await get('/en/blog')).body).toContain(card.path);
    // Through the editor's own path: a change drops the pages made of it.
    await setState(row.id, { state: 'draft' });
    app.contentChanges.emit({ type: 'item', id: row.itemId, kinds: ['post'] });
    expect((await get(card.path)).statusCode).toBe(404);
    expect((await get('/en/blog')).body).not.toContain(card.path);
    expect((await get('/en')).body).not.toContain(card.path);

    await setState(row.id, { state: 'scheduled', publishAt: new Date(Date.now() + 3_600_000) });
    app.contentChanges.emit({ type: 'item', id: row.itemId, kinds: ['post'] });
    expect((await get(card.path)).statusCode).toBe(404);
    expect((await get('/en/blog')).body).not.toContain(card.path);

    // Its time comes: the content clock publishes it, and the cached list shows it.
    await setState(row.id, { publishAt: new Date(Date.now() - 1_000) });
    await runClock();
    expect((await get('/en/blog')).body).toContain(card.path);
    expect((await get(card.path)).statusCode).toBe(200);
  });
});

describe('the page cache', () => {
  it('serves a page once rendered, answers 304 to its etag, and drops it on a price change', async () => {
    const home = await pageAt('/en');
    const first = await get(home.links.pricing);
    const etag = String(first.headers.etag);
    expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect((await get(home.links.pricing, { 'if-none-match': etag })).statusCode).toBe(304);
    expect(app.site.cache.size).toBeGreaterThan(0);

    const pricing = await pageAt(home.links.pricing);
    if (pricing.body.kind !== 'pricing') throw new Error('pricing');
    const plan = pricing.body.pricing.plans[0];
    if (!plan) throw new Error('no plan');
    await app.db.update(products).set({ amount: 12_345 }).where(eq(products.id, plan.product_id));
    // What staff's product calls do after a change (products-service.ts).
    app.catalog.invalidate();
    const after = await get(home.links.pricing);
    expect(after.headers.etag).not.toBe(etag);
    expect(after.body).toContain(
      escapeHtml(formatMoney({ amount: 12_345, currency: 'USD' }, 'en')),
    );
  });

  it('shows live online counts and drops the servers page when a status changes', async () => {
    const home = await pageAt('/en');
    const servers = await pageAt(home.links.servers);
    if (servers.body.kind !== 'servers') throw new Error('servers');
    const { online, servers: total } = servers.body.fleet;
    expect(total).toBeGreaterThan(online);
    expect(servers.body.fleet.countries.length).toBeGreaterThan(3);
    const summary = (html: string) => /data-testid="fleet-summary"[^>]*>([^<]*)</.exec(html)?.[1];
    const before = summary((await get(home.links.servers)).body);
    expect(before).toContain(`${online} of ${total} servers online`);

    const [server] = await app.db.select().from(vpnServers).where(eq(vpnServers.status, 'online'));
    if (!server) throw new Error('no server');
    await app.db.update(vpnServers).set({ status: 'offline' }).where(eq(vpnServers.id, server.id));
    app.vpn.events.serversChanged([server.id], { statusChanged: true });
    expect(summary((await get(home.links.servers)).body)).toContain(
      `${online - 1} of ${total} servers online`,
    );
  });
});

describe('search engines and safety', () => {
  it('describes the home, a post and a help article in JSON-LD', async () => {
    const types = async (path: string) =>
      jsonLd((await get(path)).body).map((data) => data['@type']);
    expect(await types('/en')).toEqual(expect.arrayContaining(['Organization', 'WebSite']));
    const blog = await pageAt('/en/blog');
    const help = await pageAt('/en/help-center');
    if (blog.body.kind !== 'blog' || help.body.kind !== 'help') throw new Error('sections');
    const post = blog.body.posts[0]?.path ?? '';
    expect(await types(post)).toEqual(['BlogPosting', 'BreadcrumbList']);
    // Read back as the schema.org types the page builds them with (schema-dts).
    const [posting, crumbs] = jsonLd((await get(post)).body) as unknown as [
      WithContext<BlogPosting>,
      WithContext<BreadcrumbList>,
    ];
    expect(posting).toMatchObject({ '@context': 'https://schema.org', inLanguage: 'en' });
    expect(Date.parse(String(posting.datePublished))).not.toBeNaN();
    expect(posting.author).toMatchObject({ '@type': 'Person' });
    expect(posting.publisher).toEqual({ '@id': `${app.config.appUrl}/#organization` });
    const items = crumbs.itemListElement as unknown as { position: number; item: string }[];
    expect(items.map((item) => item.position)).toEqual(items.map((_, index) => index + 1));
    expect(items.at(-1)?.item).toBe(app.config.appUrl + post);
    const article = help.body.categories[0]?.children[0]?.articles[0]?.path ?? '';
    expect(await types(article)).toEqual(['Article', 'BreadcrumbList']);
    const trail = jsonLd((await get(article)).body)[1] as { itemListElement: { item: string }[] };
    expect(trail.itemListElement.at(-1)?.item).toBe(app.config.appUrl + article);
  });

  it('escapes content so that nothing can close a script element or add markup', async () => {
    const { row } = await (async () => {
      const [post] = await app.db
        .select({ row: contentTranslations })
        .from(contentTranslations)
        .innerJoin(contentItems, eq(contentItems.id, contentTranslations.itemId))
        .where(and(eq(contentItems.kind, 'post'), eq(contentTranslations.lang, 'nl')));
      if (!post) throw new Error('no post');
      return post;
    })();
    const hostile = 'Safe </script><script>alert(1)</script> & "quoted" \u2028';
    await app.db
      .update(contentTranslations)
      .set({ title: hostile, seoTitle: '' })
      .where(eq(contentTranslations.id, row.id));
    app.contentChanges.emit({ type: 'item', id: row.itemId, kinds: ['post'] });
    const response = await get(`/nl/blog/${row.slug}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('<script>alert(1)');
    // JSON-LD carries the title as data, escaped so it cannot end its element.
    const posting = jsonLd(response.body)[0];
    expect(posting?.headline).toBe(hostile);
    expect(heading(response.body)).toContain('Safe');
  });

  it('admits no inline script but its own loader, by hash, and starts the script after paint', async () => {
    const response = await get('/en/blog');
    const policy = String(response.headers['content-security-policy']);
    const scriptSrc = /script-src ([^;]+)/.exec(policy)?.[1] ?? '';
    expect(scriptSrc).not.toContain('unsafe-inline');
    const inline = [...response.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(inline).toHaveLength(1);
    const hash = createHash('sha256')
      .update(inline[0] ?? '')
      .digest('base64');
    expect(scriptSrc.split(' ')).toEqual(["'self'", `'sha256-${hash}'`]);
    // The parser starts no script: the loader does, once the content has painted.
    expect(response.body).not.toContain('<script type="module"');
    expect(response.body).not.toContain('modulepreload');
    expect(inline[0]).toContain('"/assets/site-abc123.js"');
    expect(inline[0]).toContain('largest-contentful-paint');
    // The app's own screens keep the policy without any hash.
    const app404 = await get('/en/account/profile');
    expect(String(app404.headers['content-security-policy'])).toMatch(/script-src 'self'(;|$)/);
  });

  it('serves one page to everyone: nothing in it depends on who asks', async () => {
    const customer = await signedInUser(app);
    app.site.purge(['*']);
    const visitor = await get('/en/help-center');
    const signedIn = await get('/en/help-center', { cookie: customer.cookie });
    expect(signedIn.body).toBe(visitor.body);
    expect(signedIn.headers.etag).toBe(visitor.headers.etag);
    expect(signedIn.headers['set-cookie']).toBeUndefined();
    // The account link is decided in the browser (account-link.tsx): the page says Log In.
    expect(visitor.body).toContain('data-testid="login-link"');
  });

  it("gives a text's images their size and narrower copies, and a cover its srcset", async () => {
    const [image] = await app.db
      .insert(contentMedia)
      .values({
        storageKey: 'content/abcdefghijklmnopqrstuv.webp',
        width: 1600,
        height: 900,
        bytes: 1,
        alt: 'Map',
        variants: [480, 960, 1440],
      })
      .returning();
    const [post] = await app.db
      .select({ row: contentTranslations, itemId: contentItems.id })
      .from(contentTranslations)
      .innerJoin(contentItems, eq(contentItems.id, contentTranslations.itemId))
      .where(and(eq(contentItems.kind, 'post'), eq(contentTranslations.lang, 'es')));
    if (!image || !post) throw new Error('setup');
    await app.db
      .update(contentTranslations)
      .set({
        bodyHtml: '<p>Hi</p><img src="/media/content/abcdefghijklmnopqrstuv.webp" alt="Mapa">',
      })
      .where(eq(contentTranslations.id, post.row.id));
    await app.db
      .update(contentItems)
      .set({ coverImageId: image.id })
      .where(eq(contentItems.id, post.itemId));
    app.contentChanges.emit({ type: 'item', id: post.itemId, kinds: ['post'] });
    const html = (await get(`/es/blog/${post.row.slug}`)).body;
    const copies = '/media/content/abcdefghijklmnopqrstuv';
    const srcset = `${copies}-480w.webp 480w, ${copies}-960w.webp 960w, ${copies}-1440w.webp 1440w, ${copies}.webp 1600w`;
    expect(html).toContain(
      `<img src="${copies}.webp" srcset="${srcset}" sizes="(min-width: 768px) 720px, 100vw" width="1600" height="900" loading="lazy" decoding="async" alt="Mapa">`,
    );
    // The cover: above the text, sized, with its copies, fetched first.
    expect(html).toMatch(
      new RegExp(`<img src="${copies}.webp" srcset="${srcset}"[^>]*width="1600" height="900"`),
    );
    // React writes the attribute as fetchPriority (HTML reads names in any case) and preloads
    // the image with its copies.
    expect(html).toMatch(/<img [^>]*fetchpriority="high"/i);
    expect(html).toMatch(/<link rel="preload" as="image" imagesrcset="[^"]*480w/i);
  });
});
