import { createInstance } from 'i18next';
import { renderToString } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import type { SiteFaq, SitePage, SiteRendered, SiteRenderInput } from '#shared/contracts/site.ts';
import { scriptJson, siteHead } from './site/site-head.ts';
import { siteMessages } from './site/site-messages.ts';
import { SitePage as SitePageView } from './site/site-page.tsx';

// The app's server entry (DESIGN "Public pages rendered on the server"): the server calls
// `render` with a public page's data and gets back its HTML. Built by Vite's SSR build into
// dist/server/entry-server.js; the server loads it by path and never imports app code.

/**
 * The page as the browser needs it to hydrate: without its texts' HTML, which is in the
 * markup already (React keeps server-rendered inner HTML as it is when it hydrates), so a
 * post's words are not sent twice.
 */
function hydrationPage(page: SitePage): SitePage {
  const { body } = page;
  const bare = <T extends { html: string }>(text: T): T => ({ ...text, html: '' });
  const faq = (value: SiteFaq | null) =>
    value && { ...value, questions: value.questions.map((entry) => bare(entry)) };
  switch (body.kind) {
    case 'home':
      return { ...page, body: { ...body, faq: faq(body.faq) } };
    case 'pricing':
      return { ...page, body: { ...body, text: bare(body.text), faq: faq(body.faq) } };
    case 'help':
      return { ...page, body: { ...body, faq: faq(body.faq) } };
    case 'faq':
      return { ...page, body: { ...body, faq: faq(body.faq) ?? body.faq } };
    case 'servers':
    case 'download':
    case 'page':
    case 'post':
    case 'article':
      return { ...page, body: { ...body, text: bare(body.text) } };
    default:
      return page;
  }
}

export async function render({ page, origin }: SiteRenderInput): Promise<SiteRendered> {
  const messages = siteMessages(page.lang);
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: page.lang,
    fallbackLng: false,
    resources: { [page.lang]: { translation: messages } },
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  const body = renderToString(
    <I18nextProvider i18n={i18n}>
      <SitePageView page={page} />
    </I18nextProvider>,
  );
  return {
    head: siteHead(page, i18n.t, origin),
    body,
    data: scriptJson({ page: hydrationPage(page), messages }),
  };
}
