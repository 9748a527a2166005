import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../http/app-error.ts';
import { DiskStorage, type FileStorage, MemoryStorage, STORAGE_KEY } from './file-storage.ts';

declare module 'fastify' {
  interface FastifyInstance {
    storage: FileStorage;
  }
}

/** Where stored files are served: on the site origin (§2 "the photo is a path on the site origin"). */
export const MEDIA_PREFIX = '/media/';

export function mediaPath(key: string): string {
  return `${MEDIA_PREFIX}${key}`;
}

/** The storage key of a media path we handed out, or undefined for anything else. */
export function mediaKey(publicPath: string | null): string | undefined {
  if (!publicPath?.startsWith(MEDIA_PREFIX)) return undefined;
  const key = publicPath.slice(MEDIA_PREFIX.length);
  return STORAGE_KEY.test(key) ? key : undefined;
}

// Decorates the app with `storage` (UPLOADS_DIR on disk, or memory) and serves its files
// under /media/. Keys are random and never reused, so a file can be cached for good.
export const storagePlugin = fp(
  async (app: FastifyInstance) => {
    const { uploadsDir } = app.config;
    const storage: FileStorage = uploadsDir.startsWith('memory://')
      ? new MemoryStorage()
      : new DiskStorage(uploadsDir);
    app.decorate('storage', storage);

    app.get<{ Params: { '*': string } }>(
      `${MEDIA_PREFIX}*`,
      { schema: { hide: true }, config: { access: 'public' } },
      async (request, reply) => {
        const key = request.params['*'];
        const file = STORAGE_KEY.test(key) ? await storage.get(key) : undefined;
        if (!file) throw new AppError('not_found');
        return (
          reply
            .header('cache-control', 'public, max-age=31536000, immutable')
            // An uploaded file is only ever an image to show, never a document to run.
            .header('content-security-policy', "default-src 'none'; sandbox")
            .type(file.contentType)
            .send(file.data)
        );
      },
    );
  },
  { name: 'storage' },
);
