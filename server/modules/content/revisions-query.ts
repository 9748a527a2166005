import { and, count, desc, eq } from 'drizzle-orm';
import type { ContentRevisionDetail } from '#shared/contracts/admin/content.ts';
import { listPage, type PagingQuery, pageWindow } from '#shared/contracts/list.ts';
import type { Lang } from '#shared/locales.ts';
import type { Database } from '../../db/client.ts';
import {
  type ContentRevisionRow,
  contentRevisions,
  contentTranslations,
} from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { peopleById } from './content-item.ts';

type Person = Awaited<ReturnType<typeof peopleById>> extends Map<number, infer P> ? P : never;

function present(row: ContentRevisionRow, lang: Lang, people: Map<number, Person>) {
  return {
    revision_id: row.id,
    lang,
    author: row.authorId === null ? null : (people.get(row.authorId) ?? null),
    created_at: row.createdAt.toISOString(),
    changed: row.changed,
  };
}

/** A translation's revisions, the newest first. */
export async function listRevisions(db: Database, itemId: number, lang: Lang, paging: PagingQuery) {
  const [translation] = await db
    .select({ id: contentTranslations.id })
    .from(contentTranslations)
    .where(and(eq(contentTranslations.itemId, itemId), eq(contentTranslations.lang, lang)));
  if (!translation) throw new AppError('not_found');
  const where = eq(contentRevisions.translationId, translation.id);
  const { offset, limit } = pageWindow(paging);
  const rows = await db
    .select()
    .from(contentRevisions)
    .where(where)
    .orderBy(desc(contentRevisions.id))
    .offset(offset)
    .limit(limit);
  const [total] = await db.select({ n: count() }).from(contentRevisions).where(where);
  const people = await peopleById(
    db,
    rows.map((row) => row.authorId),
  );
  return listPage(
    rows.map((row) => present(row, lang, people)),
    paging,
    total?.n ?? 0,
  );
}

/** One revision whole, with the item and language it belongs to. */
export async function findRevision(db: Database, revisionId: number) {
  const [row] = await db
    .select({
      revision: contentRevisions,
      itemId: contentTranslations.itemId,
      lang: contentTranslations.lang,
    })
    .from(contentRevisions)
    .innerJoin(contentTranslations, eq(contentTranslations.id, contentRevisions.translationId))
    .where(eq(contentRevisions.id, revisionId));
  if (!row) throw new AppError('not_found');
  return { ...row, lang: row.lang as Lang };
}

export async function viewRevision(
  db: Database,
  revisionId: number,
): Promise<ContentRevisionDetail> {
  const { revision, lang } = await findRevision(db, revisionId);
  const people = await peopleById(db, [revision.authorId]);
  const snapshot = revision.snapshot;
  return {
    ...present(revision, lang, people),
    name: snapshot.title,
    url: snapshot.slug,
    summary: snapshot.summary,
    contents: snapshot.bodyMd,
    questions: snapshot.questions.map((q) => ({ question: q.question, answer: q.answerMd })),
    seo_title: snapshot.seoTitle,
    seo_description: snapshot.seoDescription,
    focus_keyphrase: snapshot.focusKeyphrase,
    state: snapshot.state as ContentRevisionDetail['state'],
    tags: snapshot.tags,
  };
}
