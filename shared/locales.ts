// §1/§3 Locale: the languages the product ships. Which of them are switched on, and the
// default, come from server configuration (LOCALES, DEFAULT_LOCALE).
export const LOCALES = [
  { lang: 'en', name: 'English', currency: 'USD', flag: '🇬🇧' },
  { lang: 'es', name: 'Español', currency: 'EUR', flag: '🇪🇸' },
  { lang: 'fr', name: 'Français', currency: 'EUR', flag: '🇫🇷' },
  { lang: 'nl', name: 'Nederlands', currency: 'EUR', flag: '🇳🇱' },
  { lang: 'ru', name: 'Русский', currency: 'RUB', flag: '🇷🇺' },
] as const;

export type Lang = (typeof LOCALES)[number]['lang'];
export type Locale = (typeof LOCALES)[number];

export const LANGS = LOCALES.map((l) => l.lang) as [Lang, ...Lang[]];

export function isLang(value: string | undefined): value is Lang {
  return value !== undefined && (LANGS as readonly string[]).includes(value);
}
