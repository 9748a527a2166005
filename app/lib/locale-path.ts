import { isLang, type Lang } from '#shared/locales.ts';

/** §2 The language switch rewrites the leading locale segment of the current path. */
export function withLocale(pathname: string, lang: Lang): string {
  const [, first, ...rest] = pathname.split('/');
  const tail = isLang(first)
    ? rest
    : [first, ...rest].filter((part) => part !== undefined && part !== '');
  return `/${[lang, ...tail].join('/')}`.replace(/\/$/, '');
}
