import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '#shared/contracts/app-config.ts';
import { appConfigBlock, publicAppConfig } from '../modules/app-config/public-config.ts';
import { AppError } from './app-error.ts';
import { sendError } from './error-handler.ts';
import { publicRoutes } from './route-access.ts';
import { POPUP_RETURN_PAGE } from './security-headers.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT = 'public, max-age=3600';

/** index.html with the runtime configuration embedded as a JSON data block. */
function renderIndex(template: string, appConfig: AppConfig): string {
  return template.replace('</head>', `${appConfigBlock(appConfig)}</head>`);
}

/**
 * The raw index.html (or its pre-compressed copies) lacks the runtime configuration: it
 * only leaves through sendIndex. Source maps are built for error reports, not visitors.
 */
function servedAsFile(path: string): boolean {
  const file = path.replace(/\.(gz|br)$/, '');
  return file !== '/index.html' && file !== '/site.html' && !file.endsWith('.map');
}

function looksLikeFile(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return path.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(path);
}

// Serves the built SPA: hashed assets with long cache headers (pre-compressed copies when
// the build made them), every other GET under a screen path gets index.html so the
// browser's router decides (history fallback). API 404s never reach this handler.
export const webPlugin = fp(
  async (app: FastifyInstance) => {
    const root = resolve(app.config.webDistDir);
    const template = await readFile(resolve(root, 'index.html'), 'utf8').catch(() => undefined);
    if (template === undefined) {
      app.log.warn({ root }, 'web app not built: run `npm run build`; only the API is served');
    } else {
      // One route per built file, each as public as the page that loads it.
      await app.register(async (files) => {
        publicRoutes(files);
        await files.register(fastifyStatic, {
          root,
          prefix: '/',
          index: false,
          wildcard: false,
          // Served by routes of their own (the site's machine files): a built copy would
          // collide with them at start-up.
          globIgnore: ['**/robots.txt', '**/sitemap*.xml'],
          preCompressed: true,
          allowedPath: servedAsFile,
          setHeaders: (res, path) => {
            res.header('cache-control', path.includes('/assets/') ? IMMUTABLE : SHORT);
          },
        });
      });
    }
    const index = template && renderIndex(template, publicAppConfig(app));

    const sendIndex = (reply: FastifyReply) =>
      reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(index);

    app.get('/', { schema: { hide: true }, config: { access: 'public' } }, (_request, reply) =>
      reply.redirect(`/${app.config.defaultLocale}`),
    );

    app.setNotFoundHandler(async (request, reply) => {
      const isPage = request.method === 'GET' || request.method === 'HEAD';
      if (!isPage || looksLikeFile(request.url)) return sendError(reply, new AppError('not_found'));
      // The public site's pages are whole HTML from the server; the rest is the app's.
      if (await app.site.respond(request, reply)) return reply;
      if (!index) return sendError(reply, new AppError('not_found'));
      if (POPUP_RETURN_PAGE.test(request.url)) {
        reply.header('cross-origin-opener-policy', 'unsafe-none');
      }
      return sendIndex(reply);
    });
  },
  { name: 'web', dependencies: ['site'] },
);
