/** A moment as staff read it: date and time in the page's language. */
export function formatDateTime(iso: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );
}

/** A moment of today as staff read it: the time alone. */
export function formatTime(iso: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, { timeStyle: 'short' }).format(new Date(iso));
}
