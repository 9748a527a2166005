import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { ContentKind } from '#shared/content/content-values.ts';
import { categoryPath, contentPath, tagPath } from '#shared/content/public-paths.ts';
import type { ArticleCard, PostCard, SiteFaq, SiteText } from '#shared/contracts/site.ts';
import type { Lang } from '#shared/locales.ts';
import type { Database } from '../../db/client.ts';
import {
  type ContentTranslationRow,
  contentCategories,
  contentCategoryTranslations,
  contentItems,
  contentMedia,
  contentTags,
  contentTranslations,
  contentTranslationTags,
  mainPageFaqs,
  users,
} from '../../db/schema/index.ts';
import { mediaKey, mediaPath } from '../../platform/storage/storage-plugin.ts';
import { srcsetOf } from '../content/media-variants.ts';
import { DEFAULT_LANG, liveAt } from '../content/public-content.ts';

// What the public pages read of staff's content. Lists show each item in the page's language
// when it is written in it, else in the default language (whose page says so): a section is
// never empty because a translation is missing.

/** How wide a text's images are shown: the text column, or the screen on a phone. */
const BODY_IMAGE_SIZES = '(min-width: 768px) 720px, 100vw';
const MEDIA_IMG = /<img src="([^"]+)"([^>]*)>/g;

/**
 * A text's images as a page should show them: their size (so nothing shifts while they
 * load), the narrower copies for smaller screens, and loaded when scrolled near.
 */
export async function withImageSizes(db: Database, html: string): Promise<string> {
  const keys = [...html.matchAll(MEDIA_IMG)].flatMap((match) => mediaKey(match[1] ?? '') ?? []);
  if (keys.length === 0) return html;
  const rows = await db
    .select()
    .from(contentMedia)
    .where(inArray(contentMedia.storageKey, [...new Set(keys)]));
  const byKey = new Map(rows.map((row) => [row.storageKey, row]));
  return html.replace(MEDIA_IMG, (tag, src: string, rest: string) => {
    const row = byKey.get(mediaKey(src) ?? '');
    if (!row) return tag;
    const srcset = escapeAttribute(srcsetOf(row));
    return `<img src="${src}" srcset="${srcset}" sizes="${BODY_IMAGE_SIZES}" width="${row.width}" height="${row.height}" loading="lazy" decoding="async"${rest}>`;
  });
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

export async function siteText(db: Database, row: ContentTranslationRow): Promise<SiteText> {
  return {
    title: row.title,
    summary: row.summary,
    html: await withImageSizes(db, row.bodyHtml),
    toc: row.toc.map((entry) => ({ depth: entry.depth, id: entry.id, text: entry.text })),
  };
}

/** Per item, the page language's live translation, else the default language's. */
function preferLang<T extends { itemId: number; lang: string }>(rows: T[], lang: Lang): T[] {
  const chosen = new Map<number, T>();
  for (const row of rows) {
    const have = chosen.get(row.itemId);
    if (!have || (have.lang !== lang && row.lang === lang)) chosen.set(row.itemId, row);
  }
  return [...chosen.values()];
}

const langs = (lang: Lang) => [...new Set([lang, DEFAULT_LANG])];

/** Live translations of items of a kind, one per item (see preferLang). */
async function liveOfKind(db: Database, kind: ContentKind, lang: Lang, now: Date, where?: SQL) {
  const rows = await db
    .select({
      itemId: contentItems.id,
      categoryId: contentItems.categoryId,
      position: contentItems.position,
      coverImageId: contentItems.coverImageId,
      translationId: contentTranslations.id,
      lang: contentTranslations.lang,
      title: contentTranslations.title,
      slug: contentTranslations.slug,
      summary: contentTranslations.summary,
      readingMinutes: contentTranslations.readingMinutes,
      publishedAt: contentTranslations.publishedAt,
      updatedAt: contentTranslations.updatedAt,
    })
    .from(contentTranslations)
    .innerJoin(contentItems, eq(contentItems.id, contentTranslations.itemId))
    .where(
      and(
        eq(contentItems.kind, kind),
        inArray(contentTranslations.lang, langs(lang)),
        liveAt(now),
        where,
      ),
    );
  return preferLang(rows, lang);
}

/** Category names and slugs in a language (the default language's where it has none). */
export async function categoryNames(db: Database, kind: 'blog' | 'help', lang: Lang) {
  const rows = await db
    .select({
      itemId: contentCategoryTranslations.categoryId,
      lang: contentCategoryTranslations.lang,
      name: contentCategoryTranslations.name,
      slug: contentCategoryTranslations.slug,
      description: contentCategoryTranslations.description,
      seoTitle: contentCategoryTranslations.seoTitle,
      seoDescription: contentCategoryTranslations.seoDescription,
      parentId: contentCategories.parentId,
      position: contentCategories.position,
    })
    .from(contentCategoryTranslations)
    .innerJoin(contentCategories, eq(contentCategories.id, contentCategoryTranslations.categoryId))
    .where(
      and(eq(contentCategories.kind, kind), inArray(contentCategoryTranslations.lang, langs(lang))),
    )
    .orderBy(asc(contentCategories.position), asc(contentCategories.id));
  const chosen = preferLang(rows, lang).map((row) => ({
    ...row,
    path: categoryPath(kind, lang, row.slug),
  }));
  return new Map(chosen.map((row) => [row.itemId, row]));
}

async function coversOf(db: Database, ids: (number | null)[]) {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map<number, PostCard['cover']>();
  const rows = await db.select().from(contentMedia).where(inArray(contentMedia.id, wanted));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        src: mediaPath(row.storageKey),
        srcset: srcsetOf(row),
        alt: row.alt,
        width: row.width,
        height: row.height,
      },
    ]),
  );
}

/** The blog's live posts, newest first, as cards; `where` narrows them. */
export async function postCards(
  db: Database,
  lang: Lang,
  now: Date,
  where?: SQL,
): Promise<(PostCard & { itemId: number; categoryId: number | null })[]> {
  const [rows, categories] = await Promise.all([
    liveOfKind(db, 'post', lang, now, where),
    categoryNames(db, 'blog', lang),
  ]);
  const covers = await coversOf(
    db,
    rows.map((row) => row.coverImageId),
  );
  const time = (row: (typeof rows)[number]) => (row.publishedAt ?? row.updatedAt).getTime();
  return rows
    .sort((a, b) => time(b) - time(a) || b.itemId - a.itemId)
    .map((row) => {
      const category = row.categoryId === null ? undefined : categories.get(row.categoryId);
      return {
        itemId: row.itemId,
        categoryId: row.categoryId,
        title: row.title,
        path: contentPath('post', lang, row.slug),
        summary: row.summary,
        published_at: row.publishedAt?.toISOString() ?? null,
        reading_minutes: row.readingMinutes,
        category: category ? { name: category.name, path: category.path } : null,
        cover: row.coverImageId === null ? null : (covers.get(row.coverImageId) ?? null),
      };
    });
}

/** Posts carrying a tag (its slug in the language). */
export async function taggedItemIds(db: Database, lang: Lang, slug: string) {
  const rows = await db
    .select({ itemId: contentTranslations.itemId, name: contentTags.name })
    .from(contentTags)
    .innerJoin(contentTranslationTags, eq(contentTranslationTags.tagId, contentTags.id))
    .innerJoin(
      contentTranslations,
      eq(contentTranslations.id, contentTranslationTags.translationId),
    )
    .where(and(eq(contentTags.lang, lang), eq(contentTags.slug, slug)));
  return { name: rows[0]?.name, ids: [...new Set(rows.map((row) => row.itemId))] };
}

export async function tagsOf(db: Database, translationId: number, lang: Lang) {
  const rows = await db
    .select({ name: contentTags.name, slug: contentTags.slug })
    .from(contentTranslationTags)
    .innerJoin(contentTags, eq(contentTags.id, contentTranslationTags.tagId))
    .where(eq(contentTranslationTags.translationId, translationId))
    .orderBy(asc(contentTags.name));
  return rows.map((row) => ({ name: row.name, path: tagPath(lang, row.slug) }));
}

/** The help center's live articles as cards, by category, in staff's order. */
export async function articleCards(db: Database, lang: Lang, now: Date) {
  const rows = await liveOfKind(db, 'article', lang, now);
  const byCategory = new Map<number | null, (ArticleCard & { itemId: number })[]>();
  for (const row of rows.sort((a, b) => a.position - b.position || a.itemId - b.itemId)) {
    const list = byCategory.get(row.categoryId) ?? [];
    list.push({
      itemId: row.itemId,
      title: row.title,
      path: contentPath('article', lang, row.slug),
      summary: row.summary,
    });
    byCategory.set(row.categoryId, list);
  }
  return byCategory;
}

/** An FAQ page's questions in the language (or the default language's). */
export async function faqOf(
  db: Database,
  itemId: number,
  lang: Lang,
  now: Date,
): Promise<SiteFaq | null> {
  const rows = await db
    .select()
    .from(contentTranslations)
    .where(
      and(
        eq(contentTranslations.itemId, itemId),
        inArray(contentTranslations.lang, langs(lang)),
        liveAt(now),
      ),
    );
  const [row] = preferLang(rows, lang);
  return row ? faqView(db, row) : null;
}

export async function faqView(db: Database, row: ContentTranslationRow): Promise<SiteFaq> {
  return {
    title: row.title,
    questions: await Promise.all(
      row.questions.map(async (entry) => ({
        question: entry.question,
        html: await withImageSizes(db, entry.answerHtml),
      })),
    ),
  };
}

/** The FAQ staff chose for a main page (§2 SEO screens), if any is live. */
export async function mainPageFaq(db: Database, page: string, lang: Lang, now: Date) {
  const [chosen] = await db.select().from(mainPageFaqs).where(eq(mainPageFaqs.page, page));
  return chosen ? faqOf(db, chosen.faqItemId, lang, now) : null;
}

/** A static page's live text by its key, in the language or the default one. */
export async function staticPage(db: Database, key: string, lang: Lang, now: Date) {
  const rows = await db
    .select({ translation: contentTranslations, itemId: contentItems.id })
    .from(contentTranslations)
    .innerJoin(contentItems, eq(contentItems.id, contentTranslations.itemId))
    .where(
      and(
        eq(contentItems.kind, 'static_page'),
        eq(contentItems.key, key),
        inArray(contentTranslations.lang, langs(lang)),
        liveAt(now),
      ),
    );
  const [row] = preferLang(
    rows.map((entry) => ({ ...entry, lang: entry.translation.lang })),
    lang,
  );
  return row?.translation;
}

/** Where each static page is in a language (its slug there, or the default language's). */
export async function staticPaths(db: Database, lang: Lang, now: Date) {
  const rows = await db
    .select({
      itemId: contentItems.id,
      key: contentItems.key,
      lang: contentTranslations.lang,
      slug: contentTranslations.slug,
    })
    .from(contentTranslations)
    .innerJoin(contentItems, eq(contentItems.id, contentTranslations.itemId))
    .where(
      and(
        eq(contentItems.kind, 'static_page'),
        inArray(contentTranslations.lang, langs(lang)),
        liveAt(now),
      ),
    );
  return new Map(
    preferLang(rows, lang).map((row) => [
      row.key ?? '',
      contentPath('static_page', lang, row.slug),
    ]),
  );
}

/** The languages an item is live in, with its address in each. */
export async function itemLanguages(db: Database, itemId: number, kind: ContentKind, now: Date) {
  const rows = await db
    .select({ lang: contentTranslations.lang, slug: contentTranslations.slug })
    .from(contentTranslations)
    .where(and(eq(contentTranslations.itemId, itemId), liveAt(now)));
  return rows.map((row) => ({ lang: row.lang, path: contentPath(kind, row.lang, row.slug) }));
}

export async function authorName(db: Database, userId: number | null) {
  if (userId === null) return null;
  const [row] = await db
    .select({ name: users.name, username: users.username })
    .from(users)
    .where(eq(users.id, userId));
  return row ? row.name || row.username : null;
}

export async function coverOf(db: Database, id: number | null) {
  return id === null ? null : ((await coversOf(db, [id])).get(id) ?? null);
}

export async function mediaUrl(db: Database, id: number | null) {
  return (await coverOf(db, id))?.src ?? null;
}

/** A category's address in each language that names it (its page's alternates). */
export async function categoryLanguages(
  db: Database,
  kind: 'blog' | 'help',
  lang: Lang,
  slug: string,
) {
  const t = contentCategoryTranslations;
  const [own] = await db
    .select({ categoryId: t.categoryId })
    .from(t)
    .where(and(eq(t.kind, kind), eq(t.lang, lang), eq(t.slug, slug)));
  if (!own) return [];
  const rows = await db
    .select({ lang: t.lang, slug: t.slug })
    .from(t)
    .where(eq(t.categoryId, own.categoryId));
  return rows.map((row) => ({ lang: row.lang, path: categoryPath(kind, row.lang, row.slug) }));
}
