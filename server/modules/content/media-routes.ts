import type { FastifyRequest } from 'fastify';
import { CONTENT_MESSAGES as M, mediaUploadFields } from '#shared/contracts/admin/content.ts';
import {
  MEDIA_ALT_FIELD,
  MEDIA_FILE_FIELD,
  MEDIA_MAX_BYTES,
  MEDIA_MESSAGES,
  mediaEndpoints,
} from '#shared/contracts/admin/content-media.ts';
import { isStorableText } from '#shared/validation/storable-text.ts';
import { FIELD_IS_INVALID, FIELD_IS_REQUIRED } from '#shared/validation/zod-messages.ts';
import { AppError } from '../../http/app-error.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { CREDENTIAL_LIMITS } from '../../platform/rate-limit/limits.ts';
import { cleanFileName, MediaService, type MediaUpload } from './media-service.ts';

/** An alt text in UTF-8 is at most 4 bytes a character; the app's default field limit is 1 KB. */
const ALT_FIELD_BYTES = 4 * 300 + 64;

/**
 * The parts of an upload, in whatever order the browser sent them: the file `image` (at
 * most 10 MB) and the text `alt`. Other text fields are ignored, another file is refused.
 * A body the multipart parser cannot read (no boundary, cut short) is the client's fault:
 * busboy says so with a plain Error, which would otherwise leave as a 500.
 */
async function readUpload(request: FastifyRequest): Promise<MediaUpload> {
  if (!request.isMultipart()) throw AppError.field(MEDIA_FILE_FIELD, FIELD_IS_REQUIRED);
  let image: Buffer | undefined;
  let fileName = '';
  let alt: unknown;
  try {
    const parts = request.parts({
      limits: { fileSize: MEDIA_MAX_BYTES, files: 1, fields: 10, fieldSize: ALT_FIELD_BYTES },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== MEDIA_FILE_FIELD) {
          part.file.resume();
          continue;
        }
        image = await part.toBuffer();
        fileName = cleanFileName(part.filename);
      } else if (part.fieldname === MEDIA_ALT_FIELD) {
        alt = part.value;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('payload_too_large', {
        validation: { [MEDIA_FILE_FIELD]: [MEDIA_MESSAGES.tooLarge] },
      });
    }
    // Fastify's own multipart refusals (too many parts or files …) carry their 4xx status.
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) throw error;
    request.log.info({ err: { message: (error as Error).message } }, 'unreadable upload');
    throw new AppError('bad_request', { validation: { [MEDIA_FILE_FIELD]: [M.notAnImage] } });
  }
  const validation: Record<string, string[]> = {};
  if (typeof alt === 'string' && !isStorableText(alt)) {
    validation[MEDIA_ALT_FIELD] = [FIELD_IS_INVALID];
  } else {
    const checked = mediaUploadFields.safeParse({ alt: alt ?? '' });
    if (!checked.success) {
      const issue = checked.error.issues[0];
      // An empty alt text says what it is for, not only that it is required.
      validation[MEDIA_ALT_FIELD] = [
        issue?.message === FIELD_IS_REQUIRED ? M.altRequired : (issue?.message ?? FIELD_IS_INVALID),
      ];
    } else alt = checked.data.alt;
  }
  if (!image || image.length === 0) validation[MEDIA_FILE_FIELD] = [FIELD_IS_REQUIRED];
  if (Object.keys(validation).length > 0 || !image) {
    throw new AppError('validation_failed', { validation });
  }
  return { image, fileName, alt: alt as string };
}

/** Issue 22: the content media library's calls (list, upload, alt text, delete). */
export function mediaRoutes(app: App): Route[] {
  const media = new MediaService({ db: app.db, storage: app.storage, log: app.log });
  return [
    route(mediaEndpoints.list, ({ query }) => media.list(query)),
    route(mediaEndpoints.view, async ({ query }) => ({ media: await media.view(query.media_id) })),
    route(mediaEndpoints.upload, async ({ request, auth }) => {
      // Counted before the upload is read: decoding a large image is the costly part.
      await app.rateLimiter.consume([
        {
          name: 'content-media-account',
          key: String(auth.user.id),
          ...CREDENTIAL_LIMITS.contentMediaPerAccount,
        },
      ]);
      return { media: await media.upload({ request, actor: auth }, await readUpload(request)) };
    }),
    route(mediaEndpoints.update, async ({ request, auth, body }) => {
      const updated = await media.updateAlt({ request, actor: auth }, body.media_id, body.alt);
      app.contentChanges.emit({ type: 'media' });
      return { success: true as const, media: updated };
    }),
    route(mediaEndpoints.delete, async ({ request, auth, body }) => {
      await media.delete({ request, actor: auth }, body.media_id, body.in_use_confirmed);
      // Pages that showed it (covers, bodies) show it no more.
      app.contentChanges.emit({ type: 'media' });
      return { success: true as const };
    }),
  ];
}
