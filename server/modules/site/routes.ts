import { siteEndpoints as e } from '#shared/contracts/site.ts';
import { isLang, type Lang } from '#shared/locales.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { siteLinks } from './site-pages.ts';

const langOf = (path: string, fallback: Lang): Lang => {
  const first = path.split('/')[1];
  return isLang(first) ? first : fallback;
};

/** The site's pages as data, for the app when it moves to one without a reload. */
export function siteRoutes(app: App): Route[] {
  return [
    route(e.page, async ({ query }) => {
      const url = new URL(query.path, 'http://site.invalid');
      const built =
        (await app.site.answer(url.pathname, url.searchParams)) ??
        (await app.site.notFound(langOf(url.pathname, app.config.defaultLocale), url.pathname));
      return built.answer;
    }),
    route(e.links, async ({ query }) => ({
      links: await siteLinks(app.db, query.lang, new Date()),
    })),
  ];
}
