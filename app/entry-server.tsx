import { createInstance } from 'i18next';
import { renderToString } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import type { SiteRendered, SiteRenderInput } from '#shared/contracts/site.ts';
import { siteHead } from './site/site-head.ts';
import { type Messages, pickSiteMessages, SITE_PARTS } from './site/site-messages.ts';
import { SitePage as SitePageView } from './site/site-page.tsx';

// The app's server entry (DESIGN "Public pages rendered on the server"): the server calls
// `render` with a public page's data and gets back its HTML. Built by Vite's SSR build into
// dist/server/entry-server.js; the server loads it by path and never imports app code.

const files = import.meta.glob<Messages>(
  './i18n/locales/*/{common,layout,public-site,order}.json',
  { import: 'default', eager: true },
);

function siteMessages(lang: string): Messages {
  const read = (part: string) => files[`./i18n/locales/${lang}/${part}.json`] ?? {};
  return pickSiteMessages(
    Object.fromEntries(SITE_PARTS.map((part) => [part, read(part)])) as Parameters<
      typeof pickSiteMessages
    >[0],
  );
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
  return { head: siteHead(page, i18n.t, origin), body };
}
