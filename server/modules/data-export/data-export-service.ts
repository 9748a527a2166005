import type { Readable } from 'node:stream';
import { and, desc, eq, gt, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  DATA_EXPORT_MESSAGES,
  DATA_EXPORT_REQUEST_EVERY_HOURS,
  type DataExportStatusResponse,
  type DataExportView,
} from '#shared/contracts/data-export.ts';
import type { Database } from '../../db/client.ts';
import { type DataExportRow, dataExports, type UserRow, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';
import { recordOwnAction } from '../audit/audit-log.ts';
import { hashToken } from '../identity/secrets.ts';

export const DATA_EXPORT_QUEUE = 'account.data-export';

/** Attempts after the first before a build counts as failed (the person may ask again). */
export const BUILD_RETRIES = 3;

const HOUR_MS = 3_600_000;
const REQUEST_EVERY_MS = DATA_EXPORT_REQUEST_EVERY_HOURS * HOUR_MS;

export interface DataExportJob {
  exportId: number;
}

const iso = (at: Date | null) => at?.toISOString() ?? null;

/** A ready export whose day is over is expired, whether or not the sweep has marked it. */
function presentExport(row: DataExportRow, now: Date): DataExportView {
  const lapsed = row.state === 'ready' && (!row.expiresAt || row.expiresAt <= now);
  return {
    state: lapsed ? 'expired' : row.state,
    requested_at: row.requestedAt.toISOString(),
    expires_at: iso(row.expiresAt),
    downloaded_at: iso(row.downloadedAt),
  };
}

/** The request that holds back the next one: the latest that did not fail, within a day. */
async function lastCounted(db: Database, userId: number, now: Date) {
  const [row] = await db
    .select()
    .from(dataExports)
    .where(
      and(
        eq(dataExports.userId, userId),
        ne(dataExports.state, 'failed'),
        gt(dataExports.requestedAt, new Date(now.getTime() - REQUEST_EVERY_MS)),
      ),
    )
    .orderBy(desc(dataExports.requestedAt), desc(dataExports.id))
    .limit(1);
  return row;
}

export async function exportStatus(
  db: Database,
  userId: number,
): Promise<DataExportStatusResponse> {
  const now = new Date();
  const [latest] = await db
    .select()
    .from(dataExports)
    .where(eq(dataExports.userId, userId))
    .orderBy(desc(dataExports.requestedAt), desc(dataExports.id))
    .limit(1);
  const counted = await lastCounted(db, userId, now);
  return {
    export: latest ? presentExport(latest, now) : null,
    next_request_at: counted
      ? new Date(counted.requestedAt.getTime() + REQUEST_EVERY_MS).toISOString()
      : null,
  };
}

/**
 * Takes a request for an export: one being built at a time, a new one a day after the last
 * that did not fail. The row, its durable build job and the audit entry commit together.
 */
export async function requestExport(
  app: App,
  request: FastifyRequest,
  user: UserRow,
): Promise<DataExportStatusResponse> {
  await app.db.transaction(async (tx) => {
    // Two clicks (or tabs) at once: the person's row lock lets one decide at a time.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
    const now = new Date();
    const [building] = await tx
      .select({ id: dataExports.id })
      .from(dataExports)
      .where(and(eq(dataExports.userId, user.id), eq(dataExports.state, 'pending')))
      .limit(1);
    if (building) throw new AppError('conflict', { info: DATA_EXPORT_MESSAGES.inProgress });
    const counted = await lastCounted(tx, user.id, now);
    if (counted) {
      const waitMs = counted.requestedAt.getTime() + REQUEST_EVERY_MS - now.getTime();
      throw new AppError('too_many_requests', {
        info: DATA_EXPORT_MESSAGES.tooSoon,
        headers: { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) },
      });
    }
    const [row] = await tx
      .insert(dataExports)
      .values({ userId: user.id, requestedAt: now })
      .returning({ id: dataExports.id });
    if (!row) throw new Error('data_exports insert returned no row');
    const job: DataExportJob = { exportId: row.id };
    await app.queue.send(DATA_EXPORT_QUEUE, job, {
      singletonKey: String(row.id),
      retryLimit: BUILD_RETRIES,
      retryDelaySeconds: 30,
      transaction: tx,
    });
    await recordOwnAction(tx, request, 'account.data_export_requested', user, {
      export_id: row.id,
    });
  });
  // Committed: the build is there to be taken now, not at the workers' next poll.
  app.queue.wake(DATA_EXPORT_QUEUE);
  return exportStatus(app.db, user.id);
}

export interface ExportDownload {
  stream: Readable;
  size: number;
  /**
   * Called once the answer is over: a complete download removes the file; one cut short
   * gives the link back, so a dropped connection does not spend the only download.
   */
  settle(completed: boolean): Promise<void>;
}

/**
 * Spends the mailed link: the signed-in person's own ready export, within its day, once. The
 * claim and its audit entry commit together, before the first byte is sent, so two clicks
 * cannot both download.
 */
export async function startDownload(
  app: App,
  request: FastifyRequest,
  user: UserRow,
  token: string,
): Promise<ExportDownload> {
  const [row] = await app.db
    .select()
    .from(dataExports)
    .where(eq(dataExports.tokenHash, hashToken(token)));
  // Another person's link is as unknown as a made-up one.
  if (!row || row.userId !== user.id) {
    throw new AppError('not_found', { info: DATA_EXPORT_MESSAGES.linkInvalid });
  }
  if (row.state === 'downloaded') {
    throw new AppError('not_found', { info: DATA_EXPORT_MESSAGES.linkUsed });
  }
  if (row.state === 'expired' || !row.expiresAt || row.expiresAt <= new Date()) {
    throw new AppError('not_found', { info: DATA_EXPORT_MESSAGES.linkExpired });
  }
  if (row.state !== 'ready' || !row.fileKey) {
    throw new AppError('not_found', { info: DATA_EXPORT_MESSAGES.linkInvalid });
  }
  const fileKey = row.fileKey;
  const file = await app.storage.getStream(fileKey);
  if (!file) throw new Error(`data export ${row.id}: file ${fileKey} is missing`);
  const claimed = await app.db.transaction(async (tx) => {
    const [taken] = await tx
      .update(dataExports)
      .set({ state: 'downloaded', downloadedAt: new Date() })
      .where(
        and(
          eq(dataExports.id, row.id),
          eq(dataExports.state, 'ready'),
          gt(dataExports.expiresAt, sql`now()`),
        ),
      )
      .returning({ id: dataExports.id });
    if (!taken) return false;
    await recordOwnAction(tx, request, 'account.data_export_downloaded', user, {
      export_id: row.id,
    });
    return true;
  });
  if (!claimed) {
    file.stream.destroy();
    throw new AppError('not_found', { info: DATA_EXPORT_MESSAGES.linkUsed });
  }
  return {
    stream: file.stream,
    size: file.size,
    async settle(completed) {
      if (!completed) {
        await app.db
          .update(dataExports)
          .set({ state: 'ready', downloadedAt: null })
          .where(and(eq(dataExports.id, row.id), eq(dataExports.state, 'downloaded')));
        return;
      }
      await app.storage.delete(fileKey);
      await app.db
        .update(dataExports)
        .set({ fileKey: null })
        .where(and(eq(dataExports.id, row.id), eq(dataExports.fileKey, fileKey)));
    },
  };
}
