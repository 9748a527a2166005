import type { Lang } from '#shared/locales.ts';

/** A date on the dashboard (renewal, end of access) as the page's language writes it. */
export function formatDashboardDate(iso: string, lang: Lang): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long' }).format(new Date(iso));
}
