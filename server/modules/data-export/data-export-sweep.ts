import { and, eq, inArray, isNotNull, lt, lte, or, sql } from 'drizzle-orm';
import { dataExports } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';

const HOUR_MS = 3_600_000;
/** A build not done by then died with its process (its retries end within minutes). */
const BUILD_GIVE_UP_MS = HOUR_MS;
/**
 * A downloaded file normally goes as its download ends; one left (a process stopped
 * mid-answer) goes after this, long past any download still streaming.
 */
const DOWNLOADED_FILE_KEPT_MS = HOUR_MS;

/**
 * Every few minutes, in any process (scheduled-jobs.ts): links past their day expire, lost
 * builds fail, and files nobody may download any more are removed from storage. Safe to
 * run in several processes at once. Answers how many files it removed.
 */
export async function sweepDataExports(app: App): Promise<number> {
  const now = Date.now();
  await app.db
    .update(dataExports)
    .set({ state: 'expired' })
    .where(and(eq(dataExports.state, 'ready'), lte(dataExports.expiresAt, sql`now()`)));
  await app.db
    .update(dataExports)
    .set({ state: 'failed', error: 'the build did not finish' })
    .where(
      and(
        eq(dataExports.state, 'pending'),
        lt(dataExports.requestedAt, new Date(now - BUILD_GIVE_UP_MS)),
      ),
    );
  const done = await app.db
    .select({ id: dataExports.id, fileKey: dataExports.fileKey })
    .from(dataExports)
    .where(
      and(
        isNotNull(dataExports.fileKey),
        or(
          inArray(dataExports.state, ['expired', 'failed']),
          and(
            eq(dataExports.state, 'downloaded'),
            lt(dataExports.downloadedAt, new Date(now - DOWNLOADED_FILE_KEPT_MS)),
          ),
        ),
      ),
    );
  let removed = 0;
  for (const { id, fileKey } of done) {
    if (!fileKey) continue;
    await app.storage.delete(fileKey);
    await app.db
      .update(dataExports)
      .set({ fileKey: null })
      .where(and(eq(dataExports.id, id), eq(dataExports.fileKey, fileKey)));
    removed += 1;
  }
  if (removed > 0) app.log.info({ removed }, 'data export files removed');
  return removed;
}
