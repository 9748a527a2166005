import { createInstance } from 'i18next';
import { startTransition } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import type { SitePage as Page } from '#shared/contracts/site.ts';
import { SitePage } from './site-page.tsx';

interface SiteData {
  page: Page;
  messages: Record<string, unknown>;
}

/** Makes the server's page live: the same tree, with the page's data and words. */
export async function hydrateSite(container: HTMLElement): Promise<Root | undefined> {
  const element = document.getElementById('site-data');
  if (!element?.textContent) return undefined;
  const data = JSON.parse(element.textContent) as SiteData;
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: data.page.lang,
    fallbackLng: false,
    resources: { [data.page.lang]: { translation: data.messages } },
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  // In a transition, hydration yields to the browser between components instead of holding
  // the main thread for the whole page (a phone's input stays responsive meanwhile).
  let root: Root | undefined;
  startTransition(() => {
    root = hydrateRoot(
      container,
      <I18nextProvider i18n={i18n}>
        <SitePage page={data.page} />
      </I18nextProvider>,
    );
  });
  return root;
}
