import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Lang } from '#shared/locales.ts';

type Messages = Record<string, unknown>;

// One file per language, loaded on demand so a visitor downloads only their own.
const loaders = import.meta.glob<Messages>('./locales/*.json', { import: 'default' });

export async function loadMessages(lang: Lang): Promise<Messages> {
  const load = loaders[`./locales/${lang}.json`];
  if (!load) throw new Error(`no messages for ${lang}`);
  return load();
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
