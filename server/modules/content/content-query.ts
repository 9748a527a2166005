import {
  type AnyColumn,
  and,
  asc,
  count,
  desc,
  eq,
  exists,
  ilike,
  inArray,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { ContentKind } from '#shared/content/content-values.ts';
import type { ContentListItem, ContentListQuery } from '#shared/contracts/admin/content.ts';
import { listPage, pageWindow } from '#shared/contracts/list.ts';
import type { Database } from '../../db/client.ts';
import { containing } from '../../db/like.ts';
import {
  contentItems,
  contentTags,
  contentTranslations,
  contentTranslationTags,
} from '../../db/schema/index.ts';
import { categoryNames, peopleById, presentSummary } from './content-item.ts';

/** A translation of the item that matches the query's language, state, search and tag. */
function translationMatch(query: ContentListQuery): SQL | undefined {
  const where: (SQL | undefined)[] = [eq(contentTranslations.itemId, contentItems.id)];
  if (query.lang) where.push(eq(contentTranslations.lang, query.lang));
  if (query.state) where.push(eq(contentTranslations.state, query.state));
  if (query.search) {
    const pattern = containing(query.search);
    where.push(
      or(ilike(contentTranslations.title, pattern), ilike(contentTranslations.slug, pattern)),
    );
  }
  if (query.tag) {
    where.push(
      exists(
        sql`(SELECT 1 FROM ${contentTranslationTags} JOIN ${contentTags} ON ${contentTags.id} = ${contentTranslationTags.tagId}
          WHERE ${contentTranslationTags.translationId} = ${contentTranslations.id}
            AND (${contentTags.slug} = ${query.tag} OR lower(${contentTags.name}) = lower(${query.tag})))`,
      ),
    );
  }
  return and(...where);
}

/** What a list sorts by: the name is the one in the list's language, else English's, else any. */
function sortColumn(sort: ContentListQuery['sort'], lang: string | undefined): SQL | AnyColumn {
  if (sort === 'updated_at') return contentItems.updatedAt;
  if (sort === 'created_at') return contentItems.createdAt;
  if (sort === 'position') return contentItems.position;
  const t = contentTranslations;
  return sql`(SELECT lower(${t.title}) FROM ${t} WHERE ${t.itemId} = ${contentItems.id}
    ORDER BY ${t.lang} = ${lang ?? 'en'} DESC, ${t.lang} = 'en' DESC, ${t.lang} LIMIT 1)`;
}

/** Staff's list of items of some kinds, each with all its translations' summaries. */
export async function listContent(
  db: Database,
  kinds: readonly ContentKind[],
  query: ContentListQuery,
): Promise<{ items: ContentListItem[]; controls: ReturnType<typeof listPage>['controls'] }> {
  const filters: (SQL | undefined)[] = [inArray(contentItems.kind, [...kinds])];
  if (query.category_id) filters.push(eq(contentItems.categoryId, query.category_id));
  if (query.author_id) filters.push(eq(contentItems.authorId, query.author_id));
  if (query.lang || query.state || query.search || query.tag) {
    filters.push(
      exists(db.select({ one: sql`1` }).from(contentTranslations).where(translationMatch(query))),
    );
  }
  const where = and(...filters);
  const { offset, limit } = pageWindow(query);
  const order = query.direction === 'asc' ? asc : desc;
  const rows = await db
    .select()
    .from(contentItems)
    .where(where)
    // Ties: the newest first, but in a manual order by id as the public help center shows it.
    .orderBy(
      order(sortColumn(query.sort, query.lang)),
      query.sort === 'position' ? asc(contentItems.id) : desc(contentItems.id),
    )
    .offset(offset)
    .limit(limit);
  const [total] = await db.select({ n: count() }).from(contentItems).where(where);
  const ids = rows.map((row) => row.id);
  const translations =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(contentTranslations)
          .where(inArray(contentTranslations.itemId, ids))
          .orderBy(asc(contentTranslations.lang));
  const people = await peopleById(
    db,
    rows.map((row) => row.authorId),
  );
  const categories = await categoryNames(
    db,
    rows.map((row) => row.categoryId),
    query.lang ?? 'en',
  );
  const items = rows.map(
    (row): ContentListItem => ({
      id: row.id,
      kind: row.kind as ContentKind,
      key: row.key,
      category:
        row.categoryId === null
          ? null
          : { category_id: row.categoryId, name: categories.get(row.categoryId) ?? '' },
      position: row.position,
      author: row.authorId === null ? null : (people.get(row.authorId) ?? null),
      updated_at: row.updatedAt.toISOString(),
      translations: translations.filter((t) => t.itemId === row.id).map(presentSummary),
    }),
  );
  return listPage(items, query, total?.n ?? 0);
}
