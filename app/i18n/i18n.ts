import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Lang } from '#shared/locales.ts';

export type Messages = Record<string, unknown>;
type Loaders = Record<string, () => Promise<Messages>>;

// One folder per language, one file per part of the product; files are loaded on demand,
// in parallel, so a visitor downloads only their own language. Each file's top-level keys
// are its own (the locale test forbids two files sharing one), so merging is a spread.
// The parts every page needs are named here; the loaders of the others (LAZY_PARTS) are a
// module of their own, fetched with the first lazy screen, to keep the home's bundle small.
export const firstPartLoaders: Loaders = import.meta.glob<Messages>(
  './locales/*/{common,errors,layout,routes,toasts,ui}.json',
  { import: 'default' },
);
const lazyPartLoaders = () =>
  import('./lazy-part-loaders.ts').then((module) => module.lazyPartLoaders);

/**
 * Parts that only screens behind a lazy route use: each comes with the first screen that
 * names it (app/routes/screens.ts), not with the public home (its JavaScript budget), and
 * `admin` only ever with an admin screen, so a customer never downloads staff texts.
 */
export const LAZY_PARTS = [
  'auth',
  'settings',
  'billing',
  'order',
  'admin',
  'admin-catalog',
  'admin-plans',
  'admin-coupons',
  'admin-sales',
  'admin-stats',
  'admin-notifications',
  'admin-servers',
  'admin-content',
  'admin-content-categories',
  'admin-content-seo',
  'admin-content-media',
  'admin-help-insights',
  'admin-oauth',
  'dashboard',
  'referral',
  'family',
  'notifications',
  'vpn',
  'public-site',
  'passkeys',
  'apps',
  'data-export',
] as const;
export type MessagePart = (typeof LAZY_PARTS)[number];

const partOf = (path: string) => path.slice(path.lastIndexOf('/') + 1, -'.json'.length);

/** Parts screens have asked for: a later language change brings them along. */
const wanted = new Set<MessagePart>();
/** Lazy parts already added, per language. */
const added = new Map<Lang, Set<string>>();

async function loadParts(
  loaders: Loaders,
  lang: Lang,
  include: (part: string) => boolean,
): Promise<Messages> {
  const files = Object.entries(loaders).filter(
    ([path]) => path.startsWith(`./locales/${lang}/`) && include(partOf(path)),
  );
  if (files.length === 0) throw new Error(`no messages for ${lang}`);
  const parts = await Promise.all(files.map(([, load]) => load()));
  return Object.assign({}, ...parts);
}

function addedIn(lang: Lang): Set<string> {
  let parts = added.get(lang);
  if (!parts) {
    parts = new Set();
    added.set(lang, parts);
  }
  return parts;
}

async function addLazyParts(lang: Lang, parts: Iterable<MessagePart>): Promise<void> {
  const have = addedIn(lang);
  const missing = [...parts].filter((part) => !have.has(part));
  if (missing.length === 0) return;
  const messages = await loadParts(await lazyPartLoaders(), lang, (part) =>
    (missing as string[]).includes(part),
  );
  i18next.addResourceBundle(lang, 'translation', messages, true, false);
  for (const part of missing) have.add(part);
}

/** Starts i18next in `lang`; `eager` loads every lazy part at once (component tests). */
export async function initI18n(lang: Lang, options: { eager?: boolean } = {}): Promise<i18n> {
  const eager = options.eager ?? false;
  const messages = await loadParts(firstPartLoaders, lang, () => true);
  if (eager) {
    Object.assign(messages, await loadParts(await lazyPartLoaders(), lang, () => true));
    for (const part of LAZY_PARTS) {
      wanted.add(part);
      addedIn(lang).add(part);
    }
  }
  await i18next.use(initReactI18next).init({
    lng: lang,
    fallbackLng: false,
    resources: { [lang]: { translation: messages } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return i18next;
}

/** The parts a screen needs, in the current language; a lazy route awaits this. */
export async function loadMessageParts(parts: readonly MessagePart[]): Promise<void> {
  for (const part of parts) wanted.add(part);
  await addLazyParts(i18next.language as Lang, parts);
}

/** Switches the language, loading its messages first. */
export async function changeLanguage(lang: Lang): Promise<void> {
  if (!i18next.hasResourceBundle(lang, 'translation')) {
    i18next.addResourceBundle(
      lang,
      'translation',
      await loadParts(firstPartLoaders, lang, () => true),
    );
  }
  await addLazyParts(lang, wanted);
  await i18next.changeLanguage(lang);
  document.documentElement.lang = lang;
}
