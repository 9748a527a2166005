import { and, eq, isNotNull, lte, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { auditLog, contentTranslations } from '../../db/schema/index.ts';

/**
 * Content's clockwork (a scheduled job, every half minute in each process; safe to run
 * twice): a scheduled translation whose time has come is published, a published one whose
 * end has come is unpublished. Each change is audited with the same statement's rows, in one
 * transaction. Staff's lists show the states it leaves.
 */
export async function runContentClock(
  db: Database,
  now: Date = new Date(),
): Promise<{ published: number; unpublished: number; items: number[] }> {
  return db.transaction(async (tx) => {
    const published = await tx
      .update(contentTranslations)
      .set({
        state: 'published',
        publishedAt: sql`coalesce(${contentTranslations.publishedAt}, ${contentTranslations.publishAt})`,
        // An editor open on the text saves over a state it did not see only by choice (409).
        version: sql`${contentTranslations.version} + 1`,
      })
      .where(
        and(eq(contentTranslations.state, 'scheduled'), lte(contentTranslations.publishAt, now)),
      )
      .returning({ id: contentTranslations.itemId, lang: contentTranslations.lang });
    const unpublished = await tx
      .update(contentTranslations)
      .set({
        state: 'unpublished',
        unpublishAt: null,
        version: sql`${contentTranslations.version} + 1`,
      })
      .where(
        and(
          isNotNull(contentTranslations.unpublishAt),
          lte(contentTranslations.unpublishAt, now),
          ne(contentTranslations.state, 'unpublished'),
          ne(contentTranslations.state, 'draft'),
        ),
      )
      .returning({ id: contentTranslations.itemId, lang: contentTranslations.lang });
    const rows = [
      ...published.map((row) => ({ ...row, action: 'content.published_on_schedule' })),
      ...unpublished.map((row) => ({ ...row, action: 'content.unpublished_on_schedule' })),
    ];
    if (rows.length > 0) {
      await tx.insert(auditLog).values(
        rows.map((row) => ({
          action: row.action,
          actorId: null,
          subjectType: 'content',
          subjectId: String(row.id),
          data: { lang: row.lang },
        })),
      );
    }
    return {
      published: published.length,
      unpublished: unpublished.length,
      items: [...new Set(rows.map((row) => row.id))],
    };
  });
}
