import { createInstance } from 'i18next';
import { startTransition } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { ISLANDS, type IslandName } from './island.tsx';
import { type Messages, pickSiteMessages, SITE_PARTS, type SitePart } from './site-messages.ts';

const loaders = import.meta.glob<Messages>(
  '../i18n/locales/*/{common,layout,public-site,order}.json',
  { import: 'default' },
);

/** The page's words: files the browser caches, loaded once the page has painted. */
async function messagesIn(lang: string): Promise<Messages> {
  const files = await Promise.all(
    SITE_PARTS.map(async (part) => {
      const load = loaders[`../i18n/locales/${lang}/${part}.json`];
      return [part, load ? await load() : {}] as const;
    }),
  );
  return pickSiteMessages(Object.fromEntries(files) as Record<SitePart, Messages>);
}

const isIsland = (name: string | undefined): name is IslandName =>
  name !== undefined && name in ISLANDS;

/**
 * Makes a public page's islands live (island.tsx): each is hydrated on its own, from the
 * props it carries, in a transition so the phone's main thread is never held for long.
 */
export async function hydrateIslands(page: ParentNode): Promise<Root[]> {
  const elements = [...page.querySelectorAll<HTMLElement>('[data-island]')];
  if (elements.length === 0) return [];
  const lang = document.documentElement.lang;
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: lang,
    fallbackLng: false,
    resources: { [lang]: { translation: await messagesIn(lang) } },
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  const roots: Root[] = [];
  startTransition(() => {
    for (const element of elements) {
      const name = element.dataset.island;
      if (!isIsland(name)) continue;
      const Component = ISLANDS[name] as (props: object) => React.ReactNode;
      const props = JSON.parse(element.dataset.props ?? '{}') as object;
      roots.push(
        hydrateRoot(
          element,
          <I18nextProvider i18n={i18n}>
            <Component {...props} />
          </I18nextProvider>,
        ),
      );
    }
  });
  return roots;
}
