import { and, asc, count, eq, ilike, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { contentTag, tagsQuery } from '#shared/contracts/admin/content.ts';
import { listPage, pageWindow } from '#shared/contracts/list.ts';
import type { Lang } from '#shared/locales.ts';
import type { Database } from '../../db/client.ts';
import { containing } from '../../db/like.ts';
import { contentTags, contentTranslationTags } from '../../db/schema/index.ts';

/** §7 GET /blog/tags: the tags of every language (or one), by name, with their posts. */
export async function listTags(db: Database, query: z.output<typeof tagsQuery>) {
  const where: (SQL | undefined)[] = [];
  if (query.lang) where.push(eq(contentTags.lang, query.lang));
  if (query.search) where.push(ilike(contentTags.name, containing(query.search)));
  const { offset, limit } = pageWindow(query);
  const rows = await db
    .select({
      id: contentTags.id,
      lang: contentTags.lang,
      name: contentTags.name,
      slug: contentTags.slug,
      posts: count(contentTranslationTags.translationId),
    })
    .from(contentTags)
    .leftJoin(contentTranslationTags, eq(contentTranslationTags.tagId, contentTags.id))
    .where(and(...where))
    .groupBy(contentTags.id)
    .orderBy(asc(contentTags.lang), asc(contentTags.name))
    .offset(offset)
    .limit(limit);
  const [total] = await db
    .select({ n: count() })
    .from(contentTags)
    .where(and(...where));
  const items = rows.map(
    (row): z.infer<typeof contentTag> => ({
      tag_id: row.id,
      lang: row.lang as Lang,
      name: row.name,
      url: row.slug,
      posts_count: row.posts,
    }),
  );
  return listPage(items, query, total?.n ?? 0);
}
