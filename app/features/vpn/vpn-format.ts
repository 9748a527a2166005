import type { Lang } from '#shared/locales.ts';

// Numbers, sizes and dates of the VPN screens, written as the page's language writes them.

// Decimal units, as the traffic limit is set (BYTES_PER_GB) and as WireGuard's apps count;
// from kilobytes up, since some languages spell the byte out ("0 byte") where kB is short.
const UNITS = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/** `3.2 GB`, `850 MB`, `0 kB` in the page's language. */
export function formatBytes(bytes: number, lang: Lang): string {
  let value = Math.max(0, bytes) / 1000;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(lang, {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: value >= 100 ? 0 : 1,
  }).format(value);
}

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

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** `2 minutes ago`, `now`, `yesterday`: how long before `now` the moment was. */
export function formatRelative(iso: string, lang: Lang, now = Date.now()): string {
  let value = (new Date(iso).getTime() - now) / 1000;
  const format = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) {
      // Seconds jump about: anything within the minute is "now".
      return unit === 'second'
        ? format.format(0, 'second')
        : format.format(Math.round(value), unit);
    }
    value /= size;
  }
  return format.format(Math.round(value), 'year');
}

/** Used of the limit, 0 to 1. */
export function usageFraction(used: number, limit: number | null): number {
  if (limit === null || limit <= 0) return 0;
  return Math.min(1, used / limit);
}

/** A country's name in the page's language, from its ISO code. */
export function regionName(code: string, lang: Lang): string {
  try {
    return new Intl.DisplayNames(lang, { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
