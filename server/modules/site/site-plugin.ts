import { createHash, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { SiteAnswer, SiteRender } from '#shared/contracts/site.ts';
import type { Lang } from '#shared/locales.ts';
import { siteAddress } from '#shared/site/site-address.ts';
import { securityHeaderValues } from '../../http/security-headers.ts';
import { connectRedis, quitRedis } from '../../platform/redis/connect-redis.ts';
import { appConfigBlock, publicAppConfig } from '../app-config/public-config.ts';
import type { ContentChange } from '../content/content-changes.ts';
import { type CachedPage, PageCache } from './page-cache.ts';
import { buildSitePage, type SiteDeps, type SiteTags } from './site-pages.ts';
import { SitePurge } from './site-purge.ts';
import { composeDocument, loadSiteRender, loadSiteTemplate } from './site-renderer.ts';

const LISTS = ['list:page', 'list:post', 'list:article', 'list:faq', 'links'];

/** The pages a content change touches (their tags, site-pages.ts). */
function contentTags(change: ContentChange): string[] {
  switch (change.type) {
    case 'item': {
      const lists = change.kinds.length === 0 ? LISTS : change.kinds.map(listOf);
      // A static page's address is in every page's header and footer.
      const links = change.kinds.includes('static_page') ? ['links'] : [];
      return [`item:${change.id}`, ...lists, ...links];
    }
    case 'section':
      return change.kinds.map(listOf);
    case 'main_page':
      return [`main:${change.page}`];
    case 'media':
      return ['*'];
  }
}

const listOf = (kind: string) => `list:${kind === 'static_page' ? 'page' : kind}`;

/** The public site: what an address shows, as data (for the app) or as a whole page. */
export interface Site {
  /** What a path under `/{lang}/` answers; null when it is the app's, not the site's. */
  answer(
    path: string,
    search?: URLSearchParams,
  ): Promise<{ answer: SiteAnswer; tags: SiteTags } | null>;
  /** The site's page-not-found in a language. */
  notFound(lang: Lang, path: string): Promise<{ answer: SiteAnswer; tags: SiteTags }>;
  /** Answers a page request with the rendered page; false when the path is not the site's. */
  respond(request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
  /** Drops the rendered pages made of any of `tags` (see site-pages.ts). */
  purge(tags: Iterable<string>): void;
  cache: PageCache;
}

declare module 'fastify' {
  interface FastifyInstance {
    site: Site;
  }
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** A rendered page, compressed once for every later visitor. */
async function cachedPage(html: string, tags: SiteTags): Promise<CachedPage> {
  const body = Buffer.from(html);
  const [gzipped, brotli] = await Promise.all([
    gzipAsync(body, { level: 9 }),
    brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  ]);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { html: body, gzip: gzipped, br: brotli, etag, tags, at: Date.now() };
}

/** Brotli, else gzip, when the browser takes it (`q=0` refuses); browsers send few variants. */
const encodings = new Map<string, 'br' | 'gzip' | undefined>();

function preferredEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  if (!header) return undefined;
  const known = encodings.get(header);
  if (known !== undefined || encodings.has(header)) return known;
  const accepted = new Set(
    header
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => q?.trim() !== 'q=0')
      .map(([name]) => name?.trim().toLowerCase()),
  );
  const chosen = accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : undefined;
  if (encodings.size < 100) encodings.set(header, chosen);
  return chosen;
}

/** Pages the same for everyone: any cache may keep them, but must ask again before use. */
const PAGE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

export const sitePlugin = fp(
  async (app: FastifyInstance) => {
    const [render, template] = await Promise.all([
      loadSiteRender(app.config.siteEntry),
      loadSiteTemplate(app.config.webDistDir),
    ]);
    if (!render) {
      app.log.warn(
        { entry: app.config.siteEntry },
        'public pages not built: run `npm run build`; the site answers as the app',
      );
    }
    const deps: SiteDeps = {
      db: app.db,
      catalog: app.catalog,
      firstService: () =>
        app.payments.enabled().find((gateway) => gateway.checkoutStyle.checkout !== 'none')
          ?.serviceId,
      origin: app.config.appUrl,
      langs: app.config.locales as Lang[],
      now: () => new Date(),
    };
    // The public pages' policy: the app's, which admits no inline script, and the one
    // loader their template carries, by its hash (site-renderer.ts).
    const baseCsp =
      securityHeaderValues(app.config.appUrl.startsWith('https://'))['content-security-policy'] ??
      '';
    const pageCsp = template.scriptHash
      ? baseCsp.replace("script-src 'self'", `script-src 'self' ${template.scriptHash}`)
      : baseCsp;
    const cache = new PageCache();
    // The catalog's own cache lives in each process too: a change staff made through another
    // process reaches it on the same channel as the pages it is shown on.
    const purger = new SitePurge(cache, (tags) => {
      if (tags.includes('catalog')) app.catalog.forget();
    });
    app.contentChanges.on((change) => purger.purge(contentTags(change)));
    app.catalog.onInvalidate(() => purger.purge(['catalog']));
    app.vpn.events.onStatusChanged(() => purger.purge(['fleet']));
    if (app.config.redisUrl) {
      const onError = (error: Error) => app.log.warn({ err: error }, 'site page purge (Redis)');
      const settings = { commandTimeoutMs: 2_000, onConnectionError: onError };
      const commands = await connectRedis(app.config.redisUrl, { name: 'site-purge', ...settings });
      const subscriber = await connectRedis(app.config.redisUrl, {
        name: 'site-purge-sub',
        ...settings,
      });
      await purger.link(commands, subscriber, randomUUID(), onError);
      app.addHook('onClose', async () => {
        await Promise.all([quitRedis(commands), quitRedis(subscriber)]);
      });
    }
    const configBlock = appConfigBlock(publicAppConfig(app));

    const answer: Site['answer'] = async (path, search = new URLSearchParams()) => {
      const address = siteAddress(path, search, app.config.locales);
      if (!address) return null;
      // A later page of a list is a page of its own (`?page=2`); any other query is not.
      const listPage = 'page' in address && address.page > 1 ? `?page=${address.page}` : '';
      return buildSitePage(deps, address, (path.replace(/\/+$/, '') || '/') + listPage);
    };

    const renderPage = async (
      render: SiteRender,
      path: string,
      search: URLSearchParams,
    ): Promise<{ status: number; html?: string; location?: string; tags?: SiteTags } | null> => {
      const built = await answer(path, search);
      if (!built) return null;
      if (built.answer.kind === 'moved') return { status: 301, location: built.answer.to };
      const rendered = await render({ page: built.answer.page, origin: app.config.appUrl });
      return {
        status: built.answer.status,
        html: composeDocument(template.html, built.answer.page.lang, rendered, configBlock),
        tags: built.tags,
      };
    };

    /** The headers a cached page goes out with, per encoding: made once, not per request. */
    const pageHeaders = (page: CachedPage, encoding: 'br' | 'gzip' | undefined) => ({
      'content-security-policy': pageCsp,
      'cache-control': PAGE_CACHE_CONTROL,
      etag: page.etag,
      vary: 'accept-encoding',
      'content-type': 'text/html; charset=utf-8',
      ...(encoding ? { 'content-encoding': encoding } : {}),
    });

    const respond: Site['respond'] = async (request, reply) => {
      if (!render) return false;
      const [pathname = '/', query] = request.url.split('?', 2);
      // `?page=` is the blog's only parameter; any other query is the same page.
      const search = new URLSearchParams(query);
      const page = query ? search.get('page') : null;
      const key = page ? `${pathname}?page=${page}` : pathname;
      let cached = cache.get(key);
      if (!cached) {
        const made = await renderPage(render, pathname, search);
        if (!made) return false;
        if (made.location) {
          await reply.header('cache-control', 'no-cache').redirect(made.location, 301);
          return true;
        }
        if (made.status !== 200) {
          await reply
            .code(made.status)
            .header('content-security-policy', pageCsp)
            .header('cache-control', 'no-cache')
            .type('text/html; charset=utf-8')
            .send(made.html);
          return true;
        }
        cached = await cachedPage(made.html ?? '', made.tags ?? new Set());
        cache.set(key, cached);
      }
      if (request.headers['if-none-match'] === cached.etag) {
        await reply.code(304).headers(pageHeaders(cached, undefined)).send();
        return true;
      }
      const encoding = preferredEncoding(request.headers['accept-encoding']);
      await reply
        .headers(pageHeaders(cached, encoding))
        .send(encoding ? cached[encoding] : cached.html);
      return true;
    };

    app.decorate('site', {
      answer,
      notFound: (lang, path) => buildSitePage(deps, { type: 'unknown', lang }, path),
      respond,
      purge: (tags: Iterable<string>) => purger.purge(tags),
      cache,
    } satisfies Site);
  },
  { name: 'site', dependencies: ['database', 'billing', 'payments', 'content', 'vpn'] },
);
