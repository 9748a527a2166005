import type { Lang } from '#shared/locales.ts';

/** The plural forms the five languages use (Russian needs few and many). */
export type PluralForms = Record<'one' | 'few' | 'many' | 'other', string>;

/** The message key of `count`'s plural form in `lang` (CLDR rules, through Intl). */
export function pluralKey(forms: PluralForms, count: number, lang: Lang): string {
  const category = new Intl.PluralRules(lang).select(count);
  return category in forms ? forms[category as keyof PluralForms] : forms.other;
}
