import type { Lang } from '#shared/locales.ts';
import { relativeTime } from '../../lib/traffic-format.ts';

// Numbers, sizes and dates of the VPN screens, written as the page's language writes them.

/** A day (a reset, a change), e.g. `December 27, 2026`. */
export function formatVpnDate(iso: string, lang: Lang): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long' }).format(new Date(iso));
}

/** A moment to the minute, for a title attribute beside a relative time. */
export function formatVpnDateTime(iso: string, lang: Lang): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );
}

/** `2 minutes ago`, `yesterday`; a handshake's seconds jump about, so within the minute, `now`. */
export function formatRelative(iso: string, lang: Lang, now = Date.now()): string {
  if (Math.abs(new Date(iso).getTime() - now) < 60_000) {
    return new Intl.RelativeTimeFormat(lang, { numeric: 'auto' }).format(0, 'second');
  }
  return relativeTime(iso, lang, now);
}

/** Used of the limit, 0 to 1. */
export function usageFraction(used: number, limit: number | null): number {
  if (limit === null || limit <= 0) return 0;
  return Math.min(1, used / limit);
}
