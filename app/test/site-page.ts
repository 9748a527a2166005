import type { SiteAnswer } from '#shared/contracts/site.ts';
import { jsonResponse, testSiteLinks } from './stub-fetch.ts';

/** Where the app asks for a public page's data (shared/contracts/site.ts). */
export const SITE_PAGE = '/api/public/v1/site/page';

/** The server's answer for a home page with nothing on sale and no content yet. */
export function homeAnswer(lang = 'en'): SiteAnswer {
  const at = (path: string) => `/${lang}/${path}`;
  return {
    kind: 'page',
    status: 200,
    page: {
      lang: lang as 'en',
      langs: ['en', 'es', 'fr', 'nl', 'ru'],
      path: `/${lang}`,
      links: testSiteLinks(lang),
      fallback_from: null,
      head: {
        title: '',
        description: '',
        canonical: `http://localhost${at('')}`,
        alternates: [],
        image: null,
        type: 'website',
        noindex: false,
      },
      body: {
        kind: 'home',
        pricing: { currency: 'USD', plans: [], order_path: at('order-v2') },
        fleet: { countries: [], servers: 0, online: 0 },
        posts: [],
        articles: [],
        faq: null,
      },
    },
  };
}

export const homeRoute = { [SITE_PAGE]: () => jsonResponse(200, homeAnswer()) };
