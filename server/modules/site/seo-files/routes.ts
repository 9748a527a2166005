import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { blogFeedPath, sitemapPath } from '#shared/content/public-paths.ts';
import { isLang, type Lang } from '#shared/locales.ts';
import { AppError } from '../../../http/app-error.ts';
import { blogFeed } from './blog-feed.ts';
import { publicPages, sitemapUrls } from './public-pages.ts';
import { robotsTxt } from './robots-txt.ts';
import { sitemapIndexXml, urlsetXml } from './sitemap-xml.ts';

// Issue 23 "Search engines": the site's machine files. Each is read from the content at the
// moment it is asked for, so a scheduled post is in them once due, without a restart; the
// answer may be kept by caches for a few minutes.

const CACHE_CONTROL = 'public, max-age=300';
const XML = 'application/xml; charset=utf-8';

const options = { schema: { hide: true }, config: { access: 'public' as const } };

type ByLang = { Params: { lang: string } };

export const seoFilesRoutes: FastifyPluginAsync = async (app) => {
  const origin = app.config.appUrl;
  const langs: readonly Lang[] = app.config.locales;

  /** A language of the path that is switched on, or a 404. */
  const langOf = (value: string): Lang => {
    if (!isLang(value) || !langs.includes(value)) throw new AppError('not_found');
    return value;
  };
  const send = (reply: FastifyReply, type: string, body: string) =>
    reply.header('cache-control', CACHE_CONTROL).type(type).send(body);

  app.get(sitemapPath(), options, async (_request, reply) => {
    const pages = await publicPages(app.db, langs, new Date());
    const sitemaps = langs.map((lang) => {
      let lastmod: Date | null = null;
      for (const url of sitemapUrls(pages, lang, origin)) {
        if (url.lastmod && (!lastmod || url.lastmod > lastmod)) lastmod = url.lastmod;
      }
      return { loc: new URL(origin + sitemapPath(lang)).href, lastmod };
    });
    return send(reply, XML, sitemapIndexXml(sitemaps));
  });

  app.get<ByLang>(sitemapPath(':lang'), options, async (request, reply) => {
    const lang = langOf(request.params.lang);
    const pages = await publicPages(app.db, langs, new Date());
    return send(reply, XML, urlsetXml(sitemapUrls(pages, lang, origin)));
  });

  app.get<ByLang>(blogFeedPath('rss', ':lang'), options, async (request, reply) => {
    const feed = await blogFeed(app.db, langOf(request.params.lang), origin, new Date());
    return send(reply, 'application/rss+xml; charset=utf-8', feed.rss2());
  });

  app.get<ByLang>(blogFeedPath('atom', ':lang'), options, async (request, reply) => {
    const feed = await blogFeed(app.db, langOf(request.params.lang), origin, new Date());
    return send(reply, 'application/atom+xml; charset=utf-8', feed.atom1());
  });

  app.get('/robots.txt', options, async (_request, reply) =>
    send(reply, 'text/plain; charset=utf-8', robotsTxt(origin, langs)),
  );
};
