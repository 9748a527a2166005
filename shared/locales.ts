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

/**
 * The first of `enabled` a browser's Accept-Language (or an OpenID `ui_locales`, space
 * separated) asks for, by weight and then order; `fallback` when it names none of them.
 */
export function pickLang(
  header: string | undefined,
  enabled: readonly Lang[],
  fallback: Lang,
): Lang {
  const wanted = (header ?? '')
    .split(/[,\s]+/)
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { lang: tag.split('-')[0]?.toLowerCase(), weight: q ? Number(q) : 1, index };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { lang } of wanted) {
    if (isLang(lang) && enabled.includes(lang)) return lang;
  }
  return fallback;
}
