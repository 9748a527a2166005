import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { ContentKind, ContentState } from '#shared/content/content-values.ts';
import type {
  ContentItem,
  ContentTranslation,
  TranslationSummary,
} from '#shared/contracts/admin/content.ts';
import type { Lang } from '#shared/locales.ts';
import type { Database } from '../../db/client.ts';
import {
  type ContentItemRow,
  type ContentTranslationRow,
  contentCategoryTranslations,
  contentItems,
  contentRedirects,
  contentTags,
  contentTranslations,
  contentTranslationTags,
  users,
} from '../../db/schema/index.ts';

type Person = { user_id: number; name: string } | null;

/** Names of the people by id: their name, else their username. */
export async function peopleById(
  db: Database,
  ids: (number | null)[],
): Promise<Map<number, Person>> {
  const unique = [...new Set(ids.filter((id): id is number => id !== null))];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.name, username: users.username })
    .from(users)
    .where(inArray(users.id, unique));
  return new Map(
    rows.map((row) => [row.id, { user_id: row.id, name: row.name || `@${row.username}` }]),
  );
}

/** The people who wrote items of a kind, by name (the lists' author filter). */
export async function authorsOf(db: Database, kind: ContentKind): Promise<NonNullable<Person>[]> {
  const rows = await db
    .selectDistinct({ id: contentItems.authorId })
    .from(contentItems)
    .where(and(eq(contentItems.kind, kind), isNotNull(contentItems.authorId)));
  const people = await peopleById(
    db,
    rows.map((row) => row.id),
  );
  return [...people.values()]
    .filter((person) => person !== null)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A category's name for lists: in the language asked, else in any it has. */
export async function categoryNames(
  db: Database,
  ids: (number | null)[],
  lang: Lang,
): Promise<Map<number, string>> {
  const unique = [...new Set(ids.filter((id): id is number => id !== null))];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({
      id: contentCategoryTranslations.categoryId,
      lang: contentCategoryTranslations.lang,
      name: contentCategoryTranslations.name,
    })
    .from(contentCategoryTranslations)
    .where(inArray(contentCategoryTranslations.categoryId, unique));
  const names = new Map<number, string>();
  for (const row of rows) {
    if (!names.has(row.id) || row.lang === lang) names.set(row.id, row.name);
  }
  return names;
}

export function presentSummary(row: ContentTranslationRow): TranslationSummary {
  return {
    lang: row.lang as Lang,
    name: row.title,
    url: row.slug,
    state: row.state as ContentState,
    publish_at: row.publishAt?.toISOString() ?? null,
    unpublish_at: row.unpublishAt?.toISOString() ?? null,
    published_at: row.publishedAt?.toISOString() ?? null,
    updated_at: row.updatedAt.toISOString(),
    seo_title: row.seoTitle,
    seo_description: row.seoDescription,
  };
}

function presentTranslation(
  row: ContentTranslationRow,
  tags: string[],
  redirects: string[],
  people: Map<number, Person>,
): ContentTranslation {
  return {
    ...presentSummary(row),
    contents: row.bodyMd,
    contents_html: row.bodyHtml,
    summary: row.summary,
    seo_title: row.seoTitle,
    seo_description: row.seoDescription,
    focus_keyphrase: row.focusKeyphrase,
    og_image_id: row.ogImageId,
    canonical_url: row.canonicalUrl,
    tags,
    redirected_from: redirects,
    questions: row.questions.map((q) => ({ question: q.question, answer: q.answerMd })),
    toc: row.toc,
    words: row.words,
    reading_minutes: row.readingMinutes,
    author: row.authorId === null ? null : (people.get(row.authorId) ?? null),
    updated_by: row.updatedById === null ? null : (people.get(row.updatedById) ?? null),
    version: row.version,
    created_at: row.createdAt.toISOString(),
  };
}

/** An item whole, as the editor opens it: every translation with its tags. */
export async function loadContentItem(
  db: Database,
  item: ContentItemRow,
  canPublish: boolean,
  lang: Lang = 'en',
): Promise<ContentItem> {
  const translations = await db
    .select()
    .from(contentTranslations)
    .where(eq(contentTranslations.itemId, item.id))
    .orderBy(asc(contentTranslations.lang));
  const ids = translations.map((row) => row.id);
  const tagRows =
    ids.length === 0
      ? []
      : await db
          .select({ translationId: contentTranslationTags.translationId, name: contentTags.name })
          .from(contentTranslationTags)
          .innerJoin(contentTags, eq(contentTags.id, contentTranslationTags.tagId))
          .where(and(inArray(contentTranslationTags.translationId, ids)))
          .orderBy(sql`lower(${contentTags.name})`);
  const redirectRows =
    ids.length === 0
      ? []
      : await db
          .select({
            translationId: contentRedirects.translationId,
            slug: contentRedirects.fromSlug,
          })
          .from(contentRedirects)
          .where(inArray(contentRedirects.translationId, ids))
          .orderBy(asc(contentRedirects.fromSlug));
  const people = await peopleById(db, [
    item.authorId,
    ...translations.flatMap((row) => [row.authorId, row.updatedById]),
  ]);
  const categories = await categoryNames(db, [item.categoryId], lang);
  return {
    id: item.id,
    kind: item.kind as ContentKind,
    key: item.key,
    category:
      item.categoryId === null
        ? null
        : { category_id: item.categoryId, name: categories.get(item.categoryId) ?? '' },
    category_id: item.categoryId,
    cover_image_id: item.coverImageId,
    position: item.position,
    author: item.authorId === null ? null : (people.get(item.authorId) ?? null),
    updated_at: item.updatedAt.toISOString(),
    translations: translations.map((row) =>
      presentTranslation(
        row,
        tagRows.filter((tag) => tag.translationId === row.id).map((tag) => tag.name),
        redirectRows.filter((r) => r.translationId === row.id).map((r) => r.slug),
        people,
      ),
    ),
    can_publish: canPublish,
  };
}
