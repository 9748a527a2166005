import type { Lang } from '#shared/locales.ts';

/** A date as the page's language writes it ("28 November 2026"), the same on server and client. */
export function longDate(iso: string, lang: Lang): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(iso),
  );
}
