import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Lang } from '#shared/locales.ts';

type Messages = Record<string, unknown>;

// One folder per language, one file per part of the product; files are loaded on demand,
// in parallel, so a visitor downloads only their own language. Each file's top-level keys
// are its own (the locale test forbids two files sharing one), so merging is a spread.
const loaders = import.meta.glob<Messages>('./locales/*/*.json', { import: 'default' });

/**
 * Parts that only screens behind a lazy route use: they come with the first such screen,
 * not with the public home (its 150 KB budget).
 */
export const LAZY_PARTS: readonly string[] = ['auth', 'settings', 'billing'];

const partOf = (path: string) => path.slice(path.lastIndexOf('/') + 1, -'.json'.length);
const isLazy = (part: string) => LAZY_PARTS.includes(part);
// Languages whose lazy parts are in; once any lazy screen has opened, a new language
// brings its lazy parts along.
const lazyLoaded = new Set<Lang>();
let lazyWanted = false;

async function loadParts(lang: Lang, include: (part: string) => boolean): Promise<Messages> {
  const files = Object.entries(loaders).filter(
    ([path]) => path.startsWith(`./locales/${lang}/`) && include(partOf(path)),
  );
  if (files.length === 0) throw new Error(`no messages for ${lang}`);
  const parts = await Promise.all(files.map(([, load]) => load()));
  return Object.assign({}, ...parts);
}

/** Every message of a language, the lazy parts too. */
export function loadMessages(lang: Lang): Promise<Messages> {
  return loadParts(lang, () => true);
}

async function addLazyParts(lang: Lang): Promise<void> {
  if (lazyLoaded.has(lang)) return;
  i18next.addResourceBundle(lang, 'translation', await loadParts(lang, isLazy), true, false);
  lazyLoaded.add(lang);
}

/** Starts i18next in `lang`; `eager` loads the lazy parts at once (component tests). */
export async function initI18n(lang: Lang, options: { eager?: boolean } = {}): Promise<i18n> {
  lazyWanted = options.eager ?? false;
  const messages = await loadParts(lang, (part) => lazyWanted || !isLazy(part));
  if (lazyWanted) lazyLoaded.add(lang);
  await i18next.use(initReactI18next).init({
    lng: lang,
    fallbackLng: false,
    resources: { [lang]: { translation: messages } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return i18next;
}

/** The lazy parts in the current language; a lazy route awaits this before it renders. */
export async function loadLazyMessages(): Promise<void> {
  lazyWanted = true;
  await addLazyParts(i18next.language as Lang);
}

/** Switches the language, loading its messages first. */
export async function changeLanguage(lang: Lang): Promise<void> {
  if (!i18next.hasResourceBundle(lang, 'translation')) {
    i18next.addResourceBundle(lang, 'translation', await loadParts(lang, (part) => !isLazy(part)));
  }
  if (lazyWanted) await addLazyParts(lang);
  await i18next.changeLanguage(lang);
  document.documentElement.lang = lang;
}
