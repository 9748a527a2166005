// Traffic, moments and countries as the page's language writes them, for the VPN screens of
// customers and staff alike.

// Decimal units, as the traffic limit is set (BYTES_PER_GB) and as WireGuard's apps count;
// from kilobytes up: "0 kB" reads better than "0 byte", and nobody counts VPN traffic in bytes.
const BYTE_UNITS = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/** `3.2 GB`, `850 MB`, `0 kB`: the largest decimal unit that keeps the number at 1 or more. */
export function formatBytes(bytes: number, lang: string): string {
  let value = Math.max(0, bytes) / 1000;
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(lang, {
    style: 'unit',
    unit: BYTE_UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: value >= 100 ? 0 : 1,
  }).format(value);
}

const STEPS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** `12 seconds ago`, `in 3 days`, `yesterday`: the largest whole unit. */
export function relativeTime(iso: string, lang: string, now = Date.now()): string {
  let amount = (new Date(iso).getTime() - now) / 1000;
  const format = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return format.format(Math.round(amount), unit);
    amount /= size;
  }
  return format.format(Math.round(amount), 'year');
}

/** A country's name from its ISO code (the code when the browser knows none). */
export function regionName(code: string, lang: string): string {
  try {
    return new Intl.DisplayNames([lang], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
