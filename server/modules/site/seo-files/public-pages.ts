import { and, eq } from 'drizzle-orm';
import type { ContentKind } from '#shared/content/content-values.ts';
import { categoryPath, contentPath, sectionPath, tagPath } from '#shared/content/public-paths.ts';
import { isLang, type Lang } from '#shared/locales.ts';
import type { Database } from '../../../db/client.ts';
import {
  contentCategories,
  contentCategoryTranslations,
  contentItems,
  contentTags,
  contentTranslations,
  contentTranslationTags,
} from '../../../db/schema/index.ts';
import { DEFAULT_LANG, liveAt } from '../../content/public-content.ts';

// Every address of the public site that search engines should index, per language, read in
// three queries whatever the amount of content. A page is listed in a language only where
// it has text of its own there: the English text the site shows as a fallback is not
// indexed twice.

/** One public page in each language that has it. */
export interface PublicPage {
  versions: Map<Lang, PageVersion>;
}

export interface PageVersion {
  path: string;
  /** When what the page shows last changed; null when it shows no content yet. */
  lastmod: Date | null;
}

interface LiveText {
  itemId: number;
  kind: ContentKind;
  categoryId: number | null;
  lang: Lang;
  slug: string;
  updatedAt: Date;
}

const ITEM_ORDER: readonly ContentKind[] = ['static_page', 'page', 'post', 'article', 'faq'];

const newest = (dates: Iterable<Date | null>): Date | null => {
  let found: Date | null = null;
  for (const date of dates) if (date && (!found || date > found)) found = date;
  return found;
};

/** Live translations (any language) of every item, without their bodies. */
async function liveTexts(db: Database, now: Date): Promise<LiveText[]> {
  const rows = await db
    .select({
      itemId: contentItems.id,
      kind: contentItems.kind,
      categoryId: contentItems.categoryId,
      lang: contentTranslations.lang,
      slug: contentTranslations.slug,
      updatedAt: contentTranslations.updatedAt,
    })
    .from(contentTranslations)
    .innerJoin(contentItems, eq(contentItems.id, contentTranslations.itemId))
    .where(liveAt(now));
  return rows.filter((row): row is LiveText => isLang(row.lang));
}

async function categoryTexts(db: Database) {
  const rows = await db
    .select({
      categoryId: contentCategories.id,
      kind: contentCategories.kind,
      parentId: contentCategories.parentId,
      position: contentCategories.position,
      lang: contentCategoryTranslations.lang,
      slug: contentCategoryTranslations.slug,
      updatedAt: contentCategoryTranslations.updatedAt,
    })
    .from(contentCategoryTranslations)
    .innerJoin(contentCategories, eq(contentCategories.id, contentCategoryTranslations.categoryId));
  return rows.sort((a, b) => a.position - b.position || a.categoryId - b.categoryId);
}

/** Tags with the live posts of their own language that carry them. */
async function liveTagUses(db: Database, now: Date) {
  return db
    .select({
      lang: contentTags.lang,
      slug: contentTags.slug,
      updatedAt: contentTranslations.updatedAt,
    })
    .from(contentTags)
    .innerJoin(contentTranslationTags, eq(contentTranslationTags.tagId, contentTags.id))
    .innerJoin(
      contentTranslations,
      and(
        eq(contentTranslations.id, contentTranslationTags.translationId),
        eq(contentTranslations.lang, contentTags.lang),
      ),
    )
    .innerJoin(contentItems, eq(contentItems.id, contentTranslations.itemId))
    .where(and(eq(contentItems.kind, 'post'), liveAt(now)));
}

/**
 * The public pages at `now`, each with its address in the switched-on `langs` that have it:
 * the home, the blog and the help center in every language; an item (page, static page,
 * post, article, FAQ) in each language it is live in; a blog or help-center category where
 * it is named and holds a live item of that language; a tag where a live post carries it.
 */
export async function publicPages(
  db: Database,
  langs: readonly Lang[],
  now: Date,
): Promise<PublicPage[]> {
  const [texts, categories, tagUses] = await Promise.all([
    liveTexts(db, now),
    categoryTexts(db),
    liveTagUses(db, now),
  ]);
  const on = new Set(langs);

  // Listed by kind, then in the order the items were written.
  texts.sort(
    (a, b) => ITEM_ORDER.indexOf(a.kind) - ITEM_ORDER.indexOf(b.kind) || a.itemId - b.itemId,
  );
  const byItem = new Map<number, LiveText[]>();
  for (const text of texts) {
    const versions = byItem.get(text.itemId);
    if (versions) versions.push(text);
    else byItem.set(text.itemId, [text]);
  }

  /**
   * What a list shows in a language: per item its own text, else the default language's
   * (site-content.ts lists the same), so a list's date follows every item it shows.
   */
  const shownCache = new Map<string, LiveText[]>();
  const shown = (lang: Lang, kind: ContentKind): LiveText[] => {
    const key = `${lang}/${kind}`;
    let list = shownCache.get(key);
    if (!list) {
      list = [...byItem.values()].flatMap((versions) => {
        const chosen =
          versions.find((text) => text.lang === lang) ??
          versions.find((text) => text.lang === DEFAULT_LANG);
        return chosen && chosen.kind === kind ? [chosen] : [];
      });
      shownCache.set(key, list);
    }
    return list;
  };

  const pages: PublicPage[] = [];

  for (const section of ['home', 'blog', 'help'] as const) {
    const kinds: ContentKind[] =
      section === 'home' ? ['post', 'article'] : [section === 'blog' ? 'post' : 'article'];
    const versions = new Map<Lang, PageVersion>();
    for (const lang of langs) {
      const items = kinds.flatMap((kind) => shown(lang, kind));
      versions.set(lang, {
        path: sectionPath(section, lang),
        lastmod: newest(items.map((text) => text.updatedAt)),
      });
    }
    pages.push({ versions });
  }

  for (const versions of byItem.values()) {
    const own = versions.filter((text) => on.has(text.lang));
    if (own.length === 0) continue;
    pages.push({
      versions: new Map(
        own.map((text) => [
          text.lang,
          { path: contentPath(text.kind, text.lang, text.slug), lastmod: text.updatedAt },
        ]),
      ),
    });
  }

  const parentOf = new Map(categories.map((row) => [row.categoryId, row.parentId]));
  /** Categories holding a live item of a language of its own, by language and kind. */
  const withOwnItems = new Map<string, Set<number | null>>();
  for (const text of texts) {
    const key = `${text.lang}/${text.kind}`;
    withOwnItems.set(key, (withOwnItems.get(key) ?? new Set()).add(text.categoryId));
  }
  const categoryPages = new Map<number, PublicPage>();
  for (const category of categories) {
    if (!isLang(category.lang) || !on.has(category.lang)) continue;
    const lang = category.lang;
    const kind = category.kind === 'blog' ? 'blog' : 'help';
    const itemKind: ContentKind = kind === 'blog' ? 'post' : 'article';
    // A top help-center category's page shows its sub-categories' articles too.
    const holds = (categoryId: number | null) =>
      categoryId !== null &&
      (categoryId === category.categoryId || parentOf.get(categoryId) === category.categoryId);
    const own = withOwnItems.get(`${lang}/${itemKind}`) ?? new Set();
    if (![...own].some(holds)) continue;
    const listed = shown(lang, itemKind).filter((text) => holds(text.categoryId));
    const page = categoryPages.get(category.categoryId) ?? { versions: new Map() };
    page.versions.set(lang, {
      path: categoryPath(kind, lang, category.slug),
      lastmod: newest([category.updatedAt, ...listed.map((text) => text.updatedAt)]),
    });
    categoryPages.set(category.categoryId, page);
  }
  pages.push(...categoryPages.values());

  // A tag belongs to one language: its page has no translation elsewhere.
  const tags = new Map<string, { lang: Lang; slug: string; lastmod: Date | null }>();
  for (const use of tagUses) {
    if (!isLang(use.lang) || !on.has(use.lang)) continue;
    const key = `${use.lang}/${use.slug}`;
    const seen = tags.get(key);
    tags.set(key, {
      lang: use.lang,
      slug: use.slug,
      lastmod: newest([seen?.lastmod ?? null, use.updatedAt]),
    });
  }
  for (const tag of [...tags.values()].sort((a, b) => a.slug.localeCompare(b.slug))) {
    pages.push({
      versions: new Map([[tag.lang, { path: tagPath(tag.lang, tag.slug), lastmod: tag.lastmod }]]),
    });
  }
  return pages;
}

/** A page's address in a language, absolute, and its alternates (with x-default). */
export interface SitemapUrl {
  loc: string;
  lastmod: Date | null;
  alternates: { hreflang: string; href: string }[];
}

/** The entries of one language's sitemap. */
export function sitemapUrls(
  pages: readonly PublicPage[],
  lang: Lang,
  origin: string,
): SitemapUrl[] {
  const absolute = (path: string) => new URL(origin + path).href;
  return pages.flatMap(({ versions }) => {
    const own = versions.get(lang);
    if (!own) return [];
    const alternates: SitemapUrl['alternates'] = [...versions].map(([hreflang, version]) => ({
      hreflang,
      href: absolute(version.path),
    }));
    const fallback = versions.get(DEFAULT_LANG);
    if (fallback) alternates.push({ hreflang: 'x-default', href: absolute(fallback.path) });
    return [{ loc: absolute(own.path), lastmod: own.lastmod, alternates }];
  });
}
