import { and, eq } from 'drizzle-orm';
import { contentPath } from '#shared/content/public-paths.ts';
import type { ProductView } from '#shared/contracts/billing.ts';
import {
  SITE_LINKS,
  type SiteAnswer,
  type SiteBody,
  type SiteLink,
  type SitePage,
  type SitePricing,
} from '#shared/contracts/site.ts';
import { type Lang, LOCALES } from '#shared/locales.ts';
import type { SiteAddress } from '#shared/site/site-address.ts';
import { STATIC_KEYS } from '#shared/site/site-address.ts';
import type { ServiceId } from '#shared/subscription/actions.ts';
import type { Database } from '../../db/client.ts';
import {
  type ContentTranslationRow,
  contentCategoryTranslations,
  mainPageSeo,
} from '../../db/schema/index.ts';
import type { Catalog } from '../billing/catalog.ts';
import { presentProduct } from '../billing/catalog.ts';
import { DEFAULT_LANG, findPublicContent } from '../content/public-content.ts';
import {
  articleCards,
  authorName,
  categoryLanguages,
  categoryNames,
  coverOf,
  faqView,
  itemLanguages,
  mainPageFaq,
  mediaUrl,
  postCards,
  siteText,
  staticPage,
  staticPaths,
  taggedItemIds,
  tagsOf,
} from './site-content.ts';
import { siteFleet } from './site-fleet.ts';

export interface SiteDeps {
  db: Database;
  catalog: Pick<Catalog, 'onSale'>;
  /** The service the order page offers first, if any sells. */
  firstService: () => ServiceId | undefined;
  origin: string;
  langs: readonly Lang[];
  now: () => Date;
}

/** Posts on a page of the blog's lists. */
export const POSTS_PER_PAGE = 12;

/**
 * What the page is made of, so the page cache can drop exactly the pages a change touches:
 * `item:{id}` (it shows that item), `list:{kind}` (it lists a section's items, in any
 * language: a list falls back to the default language's text), `main:{page}` (a main page's
 * SEO settings and FAQ), `catalog`, `fleet`, and `links` (the header's and footer's
 * addresses of the static pages, on every page). See site-purge.ts for who drops which.
 */
export type SiteTags = Set<string>;

interface Built {
  answer: SiteAnswer;
  tags: SiteTags;
}

type Head = Partial<SitePage['head']> & { itemLangs?: { lang: string; path: string }[] };

class PageBuilder {
  readonly tags: SiteTags = new Set();
  constructor(
    readonly deps: SiteDeps,
    readonly lang: Lang,
    readonly path: string,
    readonly now: Date,
  ) {
    this.tags.add('links');
  }

  async page(body: SiteBody, head: Head, fallbackFrom: Lang | null = null): Promise<SitePage> {
    const { origin, langs } = this.deps;
    const links = await this.links();
    // An item's alternates are its own translations; a section's are every language's.
    const versions =
      head.itemLangs ??
      langs.map((lang) => ({ lang, path: this.path.replace(/^\/[a-z]{2}/, `/${lang}`) }));
    const shown = versions.filter((entry) => langs.includes(entry.lang as Lang));
    const fallback = shown.find((entry) => entry.lang === DEFAULT_LANG);
    const alternates = shown.map((entry) => ({ hreflang: entry.lang, href: origin + entry.path }));
    if (fallback) alternates.push({ hreflang: 'x-default', href: origin + fallback.path });
    const canonicalPath = fallbackFrom !== null && fallback ? fallback.path : this.path;
    return {
      lang: this.lang,
      langs: [...langs],
      path: this.path,
      links,
      fallback_from: fallbackFrom,
      head: {
        title: head.title ?? '',
        description: head.description ?? '',
        canonical: head.canonical || origin + canonicalPath,
        alternates: body.kind === 'not_found' ? [] : alternates,
        image: head.image ? absolute(origin, head.image) : null,
        type: head.type ?? 'website',
        noindex: body.kind === 'not_found' || fallbackFrom !== null,
      },
      body,
    };
  }

  async links(): Promise<Record<SiteLink, string>> {
    return siteLinks(this.deps.db, this.lang, this.now);
  }

  /** A main page's SEO settings staff wrote (home, blog, help center …). */
  async mainSeo(page: string): Promise<Head> {
    this.tags.add(`main:${page}`);
    const [row] = await this.deps.db
      .select()
      .from(mainPageSeo)
      .where(and(eq(mainPageSeo.page, page), eq(mainPageSeo.lang, this.lang)));
    if (!row) return {};
    return {
      title: row.title,
      description: row.description,
      canonical: row.canonicalUrl,
      image: await mediaUrl(this.deps.db, row.ogImageId),
    };
  }

  /** The plans of the order page's first service, in the language's currency. */
  async pricing(): Promise<SitePricing> {
    this.tags.add('catalog');
    const currency = LOCALES.find((locale) => locale.lang === this.lang)?.currency ?? 'USD';
    const service = this.deps.firstService();
    const onSale = service ? await this.deps.catalog.onSale(service, currency) : [];
    const plans: ProductView[] = onSale.map(presentProduct).filter((plan) => !plan.additional);
    return { currency, plans, order_path: `/${this.lang}/order-v2` };
  }

  /** The FAQ staff placed on a main page (its questions are an item of their own). */
  faq(page: string) {
    this.tags.add(`main:${page}`).add('list:faq');
    return mainPageFaq(this.deps.db, page, this.lang, this.now);
  }

  async fleet() {
    this.tags.add('fleet');
    return siteFleet(this.deps.db, this.lang);
  }

  itemHead(row: ContentTranslationRow, itemLangs: { lang: string; path: string }[]): Head {
    this.tags.add(`item:${row.itemId}`);
    return {
      title: row.seoTitle || row.title,
      description: row.seoDescription || row.summary,
      canonical: row.canonicalUrl,
      itemLangs,
    };
  }
}

function absolute(origin: string, path: string): string {
  return /^https?:\/\//.test(path) ? path : origin + path;
}

/** The header's and footer's targets in a language. */
export async function siteLinks(db: Database, lang: Lang, now: Date) {
  const statics = await staticPaths(db, lang, now);
  const links = {} as Record<SiteLink, string>;
  for (const link of SITE_LINKS) {
    if (link === 'blog') links.blog = `/${lang}/blog`;
    else if (link === 'help_center') links.help_center = `/${lang}/help-center`;
    else links[link] = statics.get(STATIC_KEYS[link]) ?? `/${lang}`;
  }
  return links;
}

/** What a site address answers at `deps.now()`, and what it was made of. */
export async function buildSitePage(
  deps: SiteDeps,
  address: SiteAddress,
  path: string,
): Promise<Built> {
  const now = deps.now();
  const b = new PageBuilder(deps, address.lang, path, now);
  const answer = await answerFor(b, address);
  return { answer, tags: b.tags };
}

const notFound = async (b: PageBuilder): Promise<SiteAnswer> => ({
  kind: 'page',
  status: 404,
  page: await b.page({ kind: 'not_found' }, {}),
});

const ok = (page: SitePage): SiteAnswer => ({ kind: 'page', status: 200, page });

async function answerFor(b: PageBuilder, address: SiteAddress): Promise<SiteAnswer> {
  const { db } = b.deps;
  const { lang, now } = b;
  switch (address.type) {
    case 'home': {
      b.tags.add('list:post').add('list:article');
      const [pricing, fleet, posts, articles, faq, seo] = await Promise.all([
        b.pricing(),
        b.fleet(),
        postCards(db, lang, now),
        articleCards(db, lang, now),
        b.faq('home'),
        b.mainSeo('home'),
      ]);
      const popular = [...articles.values()]
        .flat()
        .slice(0, 4)
        .map(({ itemId: _id, ...card }) => card);
      const newest = posts.slice(0, 3).map(({ itemId: _id, categoryId: _c, ...card }) => card);
      const page = await b.page(
        { kind: 'home', pricing, fleet, posts: newest, articles: popular, faq },
        seo,
      );
      return ok(page);
    }
    case 'key': {
      const row = await staticPage(db, address.key, lang, now);
      if (!row) return notFound(b);
      return { kind: 'moved', to: contentPath('static_page', lang, row.slug) };
    }
    case 'page':
      return contentPage(b, address.slug);
    case 'blog':
    case 'blog_category':
    case 'blog_tag':
      return blogList(b, address);
    case 'post':
    case 'article':
    case 'faq':
      return itemPage(b, address.type, address.slug);
    case 'help': {
      b.tags.add('list:article');
      const [categories, faq, seo] = await Promise.all([
        helpTree(b),
        b.faq('help_center'),
        b.mainSeo('help_center'),
      ]);
      return ok(await b.page({ kind: 'help', categories, faq }, seo));
    }
    case 'help_category': {
      b.tags.add('list:article');
      const tree = await helpTree(b);
      const found = findCategory(tree, address.slug);
      if (!found) return notFound(b);
      const breadcrumbs = [{ name: '', path: `/${lang}/help-center` }];
      if (found.parent) breadcrumbs.push({ name: found.parent.name, path: found.parent.path });
      return ok(
        await b.page(
          { kind: 'help_category', category: found.category, breadcrumbs },
          {
            title: found.category.name,
            description: found.category.description,
            itemLangs: await categoryLanguages(db, 'help', lang, address.slug),
          },
        ),
      );
    }
    case 'unknown':
      return notFound(b);
  }
}

async function contentPage(b: PageBuilder, slug: string): Promise<SiteAnswer> {
  const { db } = b.deps;
  const found = await findPublicContent(db, ['page', 'static_page'], b.lang, slug, b.now);
  if (found.kind === 'moved') return { kind: 'moved', to: found.to };
  if (found.kind === 'missing') return notFound(b);
  const { item, translation, fallbackFrom } = found;
  const itemLangs = await itemLanguages(db, item.id, 'static_page', b.now);
  const head = b.itemHead(translation, itemLangs);
  const text = await siteText(db, translation);
  const key = item.key ?? '';
  let body: SiteBody;
  if (key === STATIC_KEYS.pricing) {
    body = {
      kind: 'pricing',
      text,
      pricing: await b.pricing(),
      faq: await b.faq('pricing'),
    };
  } else if (key === STATIC_KEYS.servers) {
    body = { kind: 'servers', text, fleet: await b.fleet() };
  } else if (key === STATIC_KEYS.download) {
    body = { kind: 'download', text };
  } else {
    body = { kind: 'page', text };
  }
  return ok(await b.page(body, head, fallbackFrom));
}

async function blogList(
  b: PageBuilder,
  address: Extract<SiteAddress, { type: 'blog' | 'blog_category' | 'blog_tag' }>,
): Promise<SiteAnswer> {
  const { db } = b.deps;
  const { lang, now } = b;
  b.tags.add('list:post');
  const categories = await categoryNames(db, 'blog', lang);
  let filter: { type: 'all' | 'category' | 'tag'; name: string } = { type: 'all', name: '' };
  let description = '';
  let head: Head = await b.mainSeo('blog');
  let all = await postCards(db, lang, now);
  if (address.type === 'blog_category') {
    const category = [...categories.values()].find((entry) => entry.slug === address.slug);
    if (!category || category.lang !== lang) {
      // A category known by another language's slug, or renamed: answer where it is now.
      const moved = await categoryMoved(db, 'blog', lang, address.slug);
      return moved ? { kind: 'moved', to: moved } : notFound(b);
    }
    filter = { type: 'category', name: category.name };
    description = category.description;
    head = {
      title: category.seoTitle || category.name,
      description: category.seoDescription || category.description,
      itemLangs: await categoryLanguages(db, 'blog', lang, address.slug),
    };
    all = all.filter((post) => post.categoryId === category.itemId);
  } else if (address.type === 'blog_tag') {
    const tag = await taggedItemIds(db, lang, address.slug);
    if (!tag.name) return notFound(b);
    filter = { type: 'tag', name: tag.name };
    // A tag belongs to one language.
    head = { title: tag.name, itemLangs: [{ lang, path: b.path }] };
    all = all.filter((post) => tag.ids.includes(post.itemId));
  }
  const pages = Math.max(1, Math.ceil(all.length / POSTS_PER_PAGE));
  if (address.page > pages) return notFound(b);
  const posts = all
    .slice((address.page - 1) * POSTS_PER_PAGE, address.page * POSTS_PER_PAGE)
    .map(({ itemId: _id, categoryId: _category, ...card }) => card);
  const usedCategories = new Set(all.map((post) => post.categoryId));
  const listed = [...categories.values()]
    .filter((category) => address.type !== 'blog' || usedCategories.has(category.itemId))
    .map((category) => ({ name: category.name, path: category.path }));
  return ok(
    await b.page(
      {
        kind: 'blog',
        filter,
        description,
        posts,
        categories: listed,
        page: address.page,
        pages,
      },
      head,
    ),
  );
}

/** A category slug of another language (or none): where that category is in this one. */
async function categoryMoved(db: Database, kind: 'blog' | 'help', lang: Lang, slug: string) {
  const [other] = await db
    .select({ categoryId: contentCategoryTranslations.categoryId })
    .from(contentCategoryTranslations)
    .where(
      and(eq(contentCategoryTranslations.kind, kind), eq(contentCategoryTranslations.slug, slug)),
    );
  if (!other) return undefined;
  const names = await categoryNames(db, kind, lang);
  const here = names.get(other.categoryId);
  return here && here.slug !== slug ? here.path : undefined;
}

async function itemPage(
  b: PageBuilder,
  type: 'post' | 'article' | 'faq',
  slug: string,
): Promise<SiteAnswer> {
  const { db } = b.deps;
  const { lang, now } = b;
  const found = await findPublicContent(db, [type], lang, slug, now);
  if (found.kind === 'moved') return { kind: 'moved', to: found.to };
  if (found.kind === 'missing') return notFound(b);
  const { item, translation, fallbackFrom } = found;
  const itemLangs = await itemLanguages(db, item.id, type, now);
  const head = b.itemHead(translation, itemLangs);
  const text = await siteText(db, translation);
  if (type === 'faq') {
    return ok(
      await b.page({ kind: 'faq', faq: await faqView(db, translation) }, head, fallbackFrom),
    );
  }
  if (type === 'post') {
    b.tags.add('list:post');
    const [author, tags, cover, posts] = await Promise.all([
      authorName(db, translation.authorId ?? item.authorId),
      tagsOf(db, translation.id, lang),
      coverOf(db, item.coverImageId),
      postCards(db, lang, now),
    ]);
    const mine = posts.find((post) => post.itemId === item.id);
    const related = posts
      .filter((post) => post.itemId !== item.id)
      .sort(
        (x, y) =>
          Number(y.categoryId === item.categoryId) - Number(x.categoryId === item.categoryId),
      )
      .slice(0, 3)
      .map(({ itemId: _id, categoryId: _category, ...card }) => card);
    const body: SiteBody = {
      kind: 'post',
      text,
      published_at: translation.publishedAt?.toISOString() ?? null,
      updated_at: translation.updatedAt.toISOString(),
      reading_minutes: translation.readingMinutes,
      author,
      category: mine?.category ?? null,
      tags,
      cover,
      related,
    };
    head.type = 'article';
    head.image = cover?.src ?? (await mediaUrl(db, translation.ogImageId));
    return ok(await b.page(body, head, fallbackFrom));
  }
  b.tags.add('list:article');
  const tree = await helpTree(b);
  const breadcrumbs = [{ name: '', path: `/${lang}/help-center` }];
  let related: { title: string; path: string; summary: string }[] = [];
  for (const top of tree) {
    for (const child of [top, ...top.children]) {
      if (!child.articles.some((article) => article.path === b.path)) continue;
      breadcrumbs.push({ name: top.name, path: top.path });
      if (child !== top) breadcrumbs.push({ name: child.name, path: child.path });
      related = child.articles.filter((article) => article.path !== b.path).slice(0, 5);
    }
  }
  const body: SiteBody = {
    kind: 'article',
    text,
    translation_id: translation.id,
    updated_at: translation.updatedAt.toISOString(),
    breadcrumbs,
    related,
  };
  head.type = 'article';
  head.image = await mediaUrl(db, translation.ogImageId);
  return ok(await b.page(body, head, fallbackFrom));
}

type HelpTree = Extract<SiteBody, { kind: 'help' }>['categories'];

/** The help center's two levels with their articles, in staff's order. */
async function helpTree(b: PageBuilder): Promise<HelpTree> {
  const { db } = b.deps;
  const [names, articles] = await Promise.all([
    categoryNames(db, 'help', b.lang),
    articleCards(db, b.lang, b.now),
  ]);
  const cards = (id: number) => (articles.get(id) ?? []).map(({ itemId: _id, ...card }) => card);
  const all = [...names.values()];
  return all
    .filter((category) => category.parentId === null)
    .map((top) => ({
      name: top.name,
      path: top.path,
      description: top.description,
      articles: cards(top.itemId),
      children: all
        .filter((child) => child.parentId === top.itemId)
        .map((child) => ({
          name: child.name,
          path: child.path,
          description: child.description,
          articles: cards(child.itemId),
        }))
        .filter((child) => child.articles.length > 0),
    }))
    .filter((top) => top.articles.length > 0 || top.children.length > 0);
}

function findCategory(tree: HelpTree, slug: string) {
  for (const top of tree) {
    if (top.path.endsWith(`/${slug}`)) return { category: top, parent: undefined };
    for (const child of top.children) {
      if (child.path.endsWith(`/${slug}`)) {
        return { category: { ...child, children: [] }, parent: top };
      }
    }
  }
  return undefined;
}
