import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Lang } from '#shared/locales.ts';

type Messages = Record<string, unknown>;

// One folder per language, one file per part of the product; files are loaded on demand,
// in parallel, so a visitor downloads only their own language. Each file's top-level keys
// are its own (the locale test forbids two files sharing one), so merging is a spread.
const loaders = import.meta.glob<Messages>('./locales/*/*.json', { import: 'default' });

export async function loadMessages(lang: Lang): Promise<Messages> {
  const files = Object.entries(loaders).filter(([path]) => path.startsWith(`./locales/${lang}/`));
  if (files.length === 0) throw new Error(`no messages for ${lang}`);
  const parts = await Promise.all(files.map(([, load]) => load()));
  return Object.assign({}, ...parts);
}

export async function initI18n(lang: Lang): Promise<i18n> {
  await i18next.use(initReactI18next).init({
    lng: lang,
    fallbackLng: false,
    resources: { [lang]: { translation: await loadMessages(lang) } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return i18next;
}

/** Switches the language, loading its messages first. */
export async function changeLanguage(lang: Lang): Promise<void> {
  if (!i18next.hasResourceBundle(lang, 'translation')) {
    i18next.addResourceBundle(lang, 'translation', await loadMessages(lang));
  }
  await i18next.changeLanguage(lang);
  document.documentElement.lang = lang;
}
