import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { DATA_EXPORT_LINK_HOURS, DATA_EXPORT_PAGE_PATH } from '#shared/contracts/data-export.ts';
import { dataExports, type UserRow, users } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import type { Job } from '../../platform/queue/job-queue.ts';
import { challengeLink, userLocale } from '../identity/mail-links.ts';
import { hashToken, newToken } from '../identity/secrets.ts';
import { BUILD_RETRIES, type DataExportJob } from './data-export-service.ts';
import { exportFiles } from './export-files.ts';
import { zipArchive } from './zip-archive.ts';

const LINK_MS = DATA_EXPORT_LINK_HOURS * 3_600_000;

/** A new storage key per attempt: never served publicly (PRIVATE_STORAGE_KEY). */
const newFileKey = () => `private/data-exports/${randomBytes(24).toString('base64url')}.zip`;

const stillPending = (id: number) => and(eq(dataExports.id, id), eq(dataExports.state, 'pending'));

async function mailLink(app: App, user: UserRow, token: string, expiresAt: Date): Promise<void> {
  const lang = userLocale(app.config, user);
  const when = new Intl.DateTimeFormat(lang, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(expiresAt);
  await app.mailer.send({
    template: 'data_export_ready',
    to: user.email,
    locale: lang,
    data: {
      name: user.name ?? user.username,
      expiresAt: `${when} UTC`,
      link: challengeLink(app.config, lang, DATA_EXPORT_PAGE_PATH, { token }),
    },
  });
}

/**
 * Builds one export: the ZIP streamed into storage, then the row made ready with the link's
 * hashed token, then the mail with the raw token (it exists nowhere else). Safe to run again:
 * a request no longer pending is left alone, and a retry replaces an earlier attempt's file.
 */
export async function buildExport(app: App, exportId: number): Promise<void> {
  const [row] = await app.db.select().from(dataExports).where(stillPending(exportId));
  if (!row) return;
  const [user] = await app.db.select().from(users).where(eq(users.id, row.userId));
  if (!user) return;
  if (row.fileKey) await app.storage.delete(row.fileKey);
  // Recorded before writing, so a failure or the sweep can find a half-written file.
  const fileKey = newFileKey();
  await app.db.update(dataExports).set({ fileKey }).where(stillPending(exportId));
  const now = new Date();
  const size = await app.storage.putStream(fileKey, zipArchive(exportFiles(app, user, now), now));
  const token = newToken();
  const expiresAt = new Date(Date.now() + LINK_MS);
  const [ready] = await app.db
    .update(dataExports)
    .set({
      state: 'ready',
      sizeBytes: size,
      tokenHash: hashToken(token),
      readyAt: new Date(),
      expiresAt,
      error: null,
    })
    .where(and(stillPending(exportId), eq(dataExports.fileKey, fileKey)))
    .returning({ id: dataExports.id });
  if (!ready) {
    await app.storage.delete(fileKey);
    return;
  }
  await mailLink(app, user, token, expiresAt);
}

/** Gives up on a build: the person sees it failed and may ask again at once. */
export async function failExport(app: App, exportId: number, reason: string): Promise<void> {
  const [failed] = await app.db
    .update(dataExports)
    .set({ state: 'failed', error: reason.slice(0, 1_000) })
    .where(stillPending(exportId))
    .returning({ fileKey: dataExports.fileKey });
  if (failed?.fileKey) await app.storage.delete(failed.fileKey);
}

/** The queue's handler: retried while attempts are left, then marked failed. */
export async function runExportJob(app: App, job: Job): Promise<void> {
  const { exportId } = job.data as DataExportJob;
  try {
    await buildExport(app, exportId);
  } catch (error) {
    app.log.error({ err: error, exportId, attempt: job.retryCount }, 'data export build failed');
    if (job.retryCount < BUILD_RETRIES) throw error;
    await failExport(app, exportId, error instanceof Error ? error.message : String(error));
  }
}
