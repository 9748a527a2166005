// How the fleet's figures read on staff's screens, in the page's language: traffic in decimal
// units (as ISPs and WireGuard apps count, BYTES_PER_GB), moments relative to now.

// From kilobytes: "0 kB" reads better than "0 byte", and no one counts VPN traffic in bytes.
const BYTE_UNITS = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/** `14.6 GB`: the largest decimal unit that keeps the number at 1 or more. */
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
    maximumFractionDigits: 1,
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

/** `12 seconds ago`, `in 3 days`: the largest whole unit, in the page's language. */
export function relativeTime(iso: string, lang: string, now: number): string {
  let amount = (new Date(iso).getTime() - now) / 1000;
  const format = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return format.format(Math.round(amount), unit);
    amount /= size;
  }
  return format.format(Math.round(amount), 'year');
}

/** A country's name from its ISO code, in the page's language (the code when unknown). */
export function regionName(code: string, lang: string): string {
  try {
    return new Intl.DisplayNames([lang], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
