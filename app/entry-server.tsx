import { createInstance } from 'i18next';
import { renderToString } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import type { SiteRendered, SiteRenderInput } from '#shared/contracts/site.ts';
import { scriptJson, siteHead } from './site/site-head.ts';
import { siteMessages } from './site/site-messages.ts';
import { SitePage } from './site/site-page.tsx';

// The app's server entry (DESIGN "Public pages rendered on the server"): the server calls
// `render` with a public page's data and gets back its HTML. Built by Vite's SSR build into
// dist/server/entry-server.js; the server loads it by path and never imports app code.

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
      <SitePage page={page} />
    </I18nextProvider>,
  );
  return {
    head: siteHead(page, i18n.t, origin),
    body,
    data: scriptJson({ page, messages }),
  };
}
