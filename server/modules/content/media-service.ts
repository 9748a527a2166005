import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, exists, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import sharp, { type Metadata } from 'sharp';
import type { z } from 'zod';
import {
  type ContentMediaItem,
  CONTENT_MESSAGES as M,
  type mediaQuery,
} from '#shared/contracts/admin/content.ts';
import {
  MEDIA_FILE_FIELD,
  MEDIA_MESSAGES,
  type MediaUse,
  type MediaUseKind,
  mediaUseText,
} from '#shared/contracts/admin/content-media.ts';
import { listPage, pageWindow } from '#shared/contracts/list.ts';
import type { Database } from '../../db/client.ts';
import { containing } from '../../db/like.ts';
import {
  contentCategoryTranslations,
  contentItems,
  contentMedia,
  contentMediaUses,
  contentTranslations,
  mainPageSeo,
} from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { FileStorage } from '../../platform/storage/file-storage.ts';
import { mediaPath } from '../../platform/storage/storage-plugin.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { type Acting, checkMayChangeLive } from './content-service.ts';
import { imageVariants, variantKey } from './media-variants.ts';

/** The widest image we keep: a body is at most ~800 px wide, at 2x density and some to spare. */
export const MEDIA_MAX_WIDTH = 2000;
/** A very tall image (a long screenshot) is scaled down to this height, its ratio kept. */
const MEDIA_MAX_HEIGHT = 4000;

// As for avatars: formats a browser or a camera makes; SVG is a document that can carry
// script, not a picture, and is refused.
const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'gif', 'heif', 'avif', 'tiff']);
// A small file can decode into a huge bitmap (a decompression bomb): 40 megapixels is more
// than any phone camera and far less than the memory that would hurt.
const MAX_INPUT_PIXELS = 40_000_000;

/** An image as we store it: re-encoded WebP with its size after scaling. */
export interface ContentImage {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * The uploaded bytes as a content image: checked by decoding the content (never by the
 * file's name or declared type), turned upright, scaled down to fit 2000 px wide with its
 * ratio kept, and re-encoded as WebP, which drops metadata (EXIF location) and anything else
 * that rode along in the file. A refusal is a field message under `image`.
 */
export async function toContentImage(upload: Buffer): Promise<ContentImage> {
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' as const };
  let meta: Metadata;
  try {
    meta = await sharp(upload, { ...options, animated: false }).metadata();
  } catch (error) {
    throw refusal(error);
  }
  if (!meta.format || !ACCEPTED.has(meta.format)) {
    throw AppError.field(MEDIA_FILE_FIELD, M.notAnImage);
  }
  // The header names the size before anything is decoded: a bomb stops here (sharp's
  // own limit usually refuses it first).
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_INPUT_PIXELS) {
    throw AppError.field(MEDIA_FILE_FIELD, MEDIA_MESSAGES.tooManyPixels);
  }
  try {
    const { data, info } = await sharp(upload, { ...options, animated: false })
      .rotate()
      .resize({
        width: MEDIA_MAX_WIDTH,
        height: MEDIA_MAX_HEIGHT,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (error) {
    throw refusal(error);
  }
}

/** Sharp's failure as the field message: a bomb (its header names too many pixels) or not an image. */
function refusal(error: unknown): AppError {
  const bomb = /pixel limit/i.test((error as Error | undefined)?.message ?? '');
  return AppError.field(MEDIA_FILE_FIELD, bomb ? MEDIA_MESSAGES.tooManyPixels : M.notAnImage);
}

type MediaRow = typeof contentMedia.$inferSelect;
type MediaQuery = z.output<typeof mediaQuery>;

const t = contentTranslations;
const item = contentItems;

/**
 * The translations that show the image: in the body or an answer (kept on each save in
 * content_media_uses), as the SEO image, or as their item's cover.
 */
function showsImage(mediaId: number): SQL | undefined {
  return or(
    eq(t.ogImageId, mediaId),
    eq(item.coverImageId, mediaId),
    exists(
      sql`(SELECT 1 FROM ${contentMediaUses} WHERE ${contentMediaUses.mediaId} = ${mediaId}
        AND ${contentMediaUses.translationId} = ${t.id})`,
    ),
  );
}

/**
 * How many places show each image (translations, categories, main pages). Read apart rather
 * than as a column of the list: a translation counts once whichever ways it shows the image.
 */
async function countUses(db: Database, ids: number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>(ids.map((id) => [id, 0]));
  if (ids.length === 0) return counts;
  const [inBodies, asSeo, asCover, categories, pages] = await Promise.all([
    db
      .select({ media: contentMediaUses.mediaId, place: contentMediaUses.translationId })
      .from(contentMediaUses)
      .where(inArray(contentMediaUses.mediaId, ids)),
    db.select({ media: t.ogImageId, place: t.id }).from(t).where(inArray(t.ogImageId, ids)),
    db
      .select({ media: item.coverImageId, place: t.id })
      .from(t)
      .innerJoin(item, eq(item.id, t.itemId))
      .where(inArray(item.coverImageId, ids)),
    db
      .select({ media: contentCategoryTranslations.ogImageId, n: count() })
      .from(contentCategoryTranslations)
      .where(inArray(contentCategoryTranslations.ogImageId, ids))
      .groupBy(contentCategoryTranslations.ogImageId),
    db
      .select({ media: mainPageSeo.ogImageId, n: count() })
      .from(mainPageSeo)
      .where(inArray(mainPageSeo.ogImageId, ids))
      .groupBy(mainPageSeo.ogImageId),
  ]);
  const translations = new Map<number, Set<number>>();
  for (const { media, place } of [...inBodies, ...asSeo, ...asCover]) {
    if (media === null) continue;
    const seen = translations.get(media) ?? new Set<number>();
    seen.add(place);
    translations.set(media, seen);
  }
  for (const [media, places] of translations) {
    counts.set(media, (counts.get(media) ?? 0) + places.size);
  }
  for (const { media, n } of [...categories, ...pages]) {
    if (media !== null) counts.set(media, (counts.get(media) ?? 0) + n);
  }
  return counts;
}

export function presentMedia(row: MediaRow, uses: number): ContentMediaItem {
  return {
    media_id: row.id,
    url: mediaPath(row.storageKey),
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    alt: row.alt,
    original_name: row.originalName,
    uses: Number(uses),
    created_at: row.createdAt.toISOString(),
  };
}

/** A file name as the browser sent it, kept for search: no folders, at most 255 characters. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // Only text the database stores as given: no control characters, no lone surrogates.
  const cleaned = base.replace(/[\p{Cc}\p{Cs}]/gu, '').trim();
  return Array.from(cleaned).slice(0, 255).join('');
}

export interface MediaDeps {
  db: Database;
  storage: FileStorage;
  log: FastifyBaseLogger;
}

/** What an upload brings: the image's bytes, its file name and its alt text (checked). */
export interface MediaUpload {
  image: Buffer;
  fileName: string;
  alt: string;
}

/**
 * The content media library (issue 22): uploads re-encoded and stored under
 * /media/content/, their alt text, and deletion that names where an image is used first.
 * Each change is audited in its transaction.
 */
export class MediaService {
  constructor(private readonly deps: MediaDeps) {}

  private audit(db: Database, acting: Acting, action: MediaAction, id: number, data = {}) {
    return recordAudit(db, acting.request, {
      action,
      actorId: acting.actor.user.id,
      subjectType: 'content_media',
      subjectId: id,
      data,
    });
  }

  async list(query: MediaQuery) {
    const where: (SQL | undefined)[] = [];
    if (query.search) {
      const pattern = containing(query.search);
      where.push(or(ilike(contentMedia.alt, pattern), ilike(contentMedia.originalName, pattern)));
    }
    const { offset, limit } = pageWindow(query);
    const rows = await this.deps.db
      .select()
      .from(contentMedia)
      .where(and(...where))
      .orderBy(desc(contentMedia.createdAt), desc(contentMedia.id))
      .offset(offset)
      .limit(limit);
    const [total] = await this.deps.db
      .select({ n: count() })
      .from(contentMedia)
      .where(and(...where));
    const uses = await countUses(
      this.deps.db,
      rows.map((row) => row.id),
    );
    return listPage(
      rows.map((row) => presentMedia(row, uses.get(row.id) ?? 0)),
      query,
      total?.n ?? 0,
    );
  }

  private async find(db: Database, id: number, lock = false) {
    const select = db.select().from(contentMedia).where(eq(contentMedia.id, id));
    const [row] = lock ? await select.for('update') : await select;
    if (!row) throw AppError.field('media_id', M.unknownMedia);
    return row;
  }

  /** One image, as the library lists it. */
  async view(id: number): Promise<ContentMediaItem> {
    const [row] = await this.deps.db.select().from(contentMedia).where(eq(contentMedia.id, id));
    if (!row) throw new AppError('not_found');
    const uses = await countUses(this.deps.db, [id]);
    return presentMedia(row, uses.get(id) ?? 0);
  }

  private async present(db: Database, id: number): Promise<ContentMediaItem> {
    const row = await this.find(db, id);
    const uses = await countUses(db, [id]);
    return presentMedia(row, uses.get(id) ?? 0);
  }

  /** Every place that shows the image, items first, in a stable order. */
  async usesOf(db: Database, id: number): Promise<MediaUse[]> {
    const translations = await db
      .select({ kind: item.kind, lang: t.lang, name: t.title })
      .from(t)
      .innerJoin(item, eq(item.id, t.itemId))
      .where(showsImage(id))
      .orderBy(item.kind, t.title, t.lang);
    const categories = await db
      .select({
        kind: contentCategoryTranslations.kind,
        lang: contentCategoryTranslations.lang,
        name: contentCategoryTranslations.name,
      })
      .from(contentCategoryTranslations)
      .where(eq(contentCategoryTranslations.ogImageId, id))
      .orderBy(contentCategoryTranslations.name, contentCategoryTranslations.lang);
    const pages = await db
      .select({ name: mainPageSeo.page, lang: mainPageSeo.lang })
      .from(mainPageSeo)
      .where(eq(mainPageSeo.ogImageId, id))
      .orderBy(mainPageSeo.page, mainPageSeo.lang);
    return [
      ...translations.map((row) => ({ ...row, kind: row.kind as MediaUseKind })),
      ...categories.map((row) => ({ ...row, kind: `${row.kind}_category` as MediaUseKind })),
      ...pages.map((row) => ({ ...row, kind: 'main_page' as const })),
    ];
  }

  /**
   * Stores the re-encoded image under a new random name, then its row and audit in one
   * transaction; if that fails, the file goes again (it would be served to nobody).
   */
  async upload(acting: Acting, upload: MediaUpload): Promise<ContentMediaItem> {
    const image = await toContentImage(upload.image);
    const storageKey = `content/${randomBytes(16).toString('base64url')}.webp`;
    const variants = await imageVariants(image.data, image.width);
    const files = [
      { key: storageKey, data: image.data },
      ...variants.map((variant) => ({
        key: variantKey(storageKey, variant.width),
        data: variant.data,
      })),
    ];
    await Promise.all(
      files.map((file) =>
        this.deps.storage.put(file.key, { data: file.data, contentType: 'image/webp' }),
      ),
    );
    try {
      return await this.deps.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(contentMedia)
          .values({
            storageKey,
            width: image.width,
            height: image.height,
            bytes: image.data.length,
            alt: upload.alt,
            originalName: upload.fileName,
            variants: variants.map((variant) => variant.width),
            uploadedById: acting.actor.user.id,
          })
          .returning();
        if (!row) throw new Error('media not inserted');
        await this.audit(tx, acting, 'content.media_uploaded', row.id, {
          alt: row.alt,
          original_name: row.originalName,
          width: row.width,
          height: row.height,
          bytes: row.bytes,
        });
        return presentMedia(row, 0);
      });
    } catch (error) {
      await Promise.all(files.map((file) => this.deps.storage.delete(file.key).catch(() => {})));
      throw error;
    }
  }

  async updateAlt(acting: Acting, id: number, alt: string): Promise<ContentMediaItem> {
    return this.deps.db.transaction(async (tx) => {
      const row = await this.find(tx, id, true);
      if (row.alt !== alt) {
        await tx.update(contentMedia).set({ alt }).where(eq(contentMedia.id, id));
        await this.audit(tx, acting, 'content.media_updated', id, {
          alt: { from: row.alt, to: alt },
        });
      }
      return this.present(tx, id);
    });
  }

  /**
   * Deletes an image. In use, it is refused (422 under `in_use_confirmed`, the message and
   * then each place) unless staff confirmed; confirmed, the bodies keep their text as it is
   * (an image there no longer shows) and the uses, covers and SEO images that named it go.
   */
  async delete(acting: Acting, id: number, inUseConfirmed: boolean): Promise<void> {
    const storageKeys = await this.deps.db.transaction(async (tx) => {
      const row = await this.find(tx, id, true);
      const uses = await this.usesOf(tx, id);
      if (uses.length > 0 && !inUseConfirmed) {
        throw new AppError('validation_failed', {
          validation: { in_use_confirmed: [M.mediaInUse, ...uses.map(mediaUseText)] },
        });
      }
      // Taking an image off pages (covers and SEO images cleared, gone from bodies) is a
      // change to what they show: for someone who may publish.
      if (uses.length > 0) await checkMayChangeLive(tx, acting.actor);
      // content_media_uses go with the row; covers and SEO images are set to none.
      await tx.delete(contentMedia).where(eq(contentMedia.id, id));
      await this.audit(tx, acting, 'content.media_deleted', id, {
        alt: row.alt,
        original_name: row.originalName,
        url: mediaPath(row.storageKey),
        uses: uses.map(mediaUseText),
      });
      return [row.storageKey, ...row.variants.map((width) => variantKey(row.storageKey, width))];
    });
    // The delete is done: a file the disk would not remove now is only left over.
    for (const storageKey of storageKeys) {
      await this.deps.storage.delete(storageKey).catch((error: unknown) => {
        this.deps.log.warn({ err: error, storageKey }, 'content image file not removed');
      });
    }
  }
}

type MediaAction = 'content.media_uploaded' | 'content.media_updated' | 'content.media_deleted';
