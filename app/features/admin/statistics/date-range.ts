import { MAX_RANGE_DAYS, type StatisticsRange } from '#shared/contracts/admin/statistics.ts';

// The statistics screens' range of days. Days are UTC days, as the server counts them, so
// "today" is the same day for staff in every zone.

export const RANGE_PRESETS = ['30d', '90d', '12m', 'ytd', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export const DEFAULT_PRESET: RangePreset = '30d';

export type Granularity = 'day' | 'month';

/** `2026-11-24`: the UTC day of a moment. */
export function isoDay(moment: Date): string {
  return moment.toISOString().slice(0, 10);
}

function utcDay(year: number, month: number, day: number): string {
  return isoDay(new Date(Date.UTC(year, month, day)));
}

/** The days a preset covers, ending today (UTC). */
export function presetRange(preset: Exclude<RangePreset, 'custom'>, now: Date): StatisticsRange {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const day = now.getUTCDate();
  const to = utcDay(year, month, day);
  switch (preset) {
    case '30d':
      return { from: utcDay(year, month, day - 29), to };
    case '90d':
      return { from: utcDay(year, month, day - 89), to };
    // Twelve whole calendar months, this one included, so a month chart has no half first bar.
    case '12m':
      return { from: utcDay(year, month - 11, 1), to };
    case 'ytd':
      return { from: utcDay(year, 0, 1), to };
  }
}

/** Today and the month so far (UTC): the dashboard's revenue. */
export function monthToDate(now: Date): StatisticsRange {
  return { from: utcDay(now.getUTCFullYear(), now.getUTCMonth(), 1), to: isoDay(now) };
}

export type RangeErrors = Partial<Record<'from' | 'to', string>>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isDay(value: string): boolean {
  return DAY.test(value) && isoDay(new Date(`${value}T00:00:00Z`)) === value;
}

/**
 * The rules of the statistics contract (shared/contracts/admin/statistics.ts), each with a
 * message of its own: a missing or impossible day, an end before the start, a range longer
 * than one call covers.
 */
export function checkRange(from: string, to: string): RangeErrors {
  const errors: RangeErrors = {};
  if (!from) errors.from = 'input_errors.field_is_required';
  else if (!isDay(from)) errors.from = 'input_errors.field_is_invalid';
  if (!to) errors.to = 'input_errors.field_is_required';
  else if (!isDay(to)) errors.to = 'input_errors.field_is_invalid';
  if (errors.from || errors.to) return errors;
  if (to < from) return { to: 'staff_stats.range.errors.end_before_start' };
  if (daysBetween(from, to) >= MAX_RANGE_DAYS) {
    return { from: 'staff_stats.range.errors.too_long' };
  }
  return errors;
}

/** Whole days from `from` to `to` (0 for the same day). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
}

/** By day for up to about three months, by month beyond: a chart stays readable. */
export function defaultGranularity(range: StatisticsRange): Granularity {
  return daysBetween(range.from, range.to) > 92 ? 'month' : 'day';
}

export interface RangeState {
  preset: RangePreset;
  /** The range asked, or null while a custom one is wrong (then `errors` says why). */
  range: StatisticsRange | null;
  /** What the custom fields hold, valid or not. */
  from: string;
  to: string;
  errors: RangeErrors;
  granularity: Granularity;
}

function isPreset(value: string | null): value is RangePreset {
  return (RANGE_PRESETS as readonly (string | null)[]).includes(value);
}

/** The range the URL's `range`, `from`, `to` and `granularity` say; a wrong preset is the default. */
export function readRange(params: URLSearchParams, now: Date): RangeState {
  const asked = params.get('range');
  const preset: RangePreset = isPreset(asked) ? asked : DEFAULT_PRESET;
  const granularityParam = params.get('granularity');
  const chosen: Granularity | undefined =
    granularityParam === 'day' || granularityParam === 'month' ? granularityParam : undefined;
  if (preset === 'custom') {
    const from = params.get('from') ?? '';
    const to = params.get('to') ?? '';
    const errors = checkRange(from, to);
    const range = Object.keys(errors).length === 0 ? { from, to } : null;
    const granularity = chosen ?? (range ? defaultGranularity(range) : 'day');
    return { preset, range, from, to, errors, granularity };
  }
  const range = presetRange(preset, now);
  return {
    preset,
    range,
    ...range,
    errors: {},
    granularity: chosen ?? defaultGranularity(range),
  };
}

/** `2026-11` as the page's language names the month: "Nov 2026". */
export function monthLabel(month: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month.slice(0, 7)}-01T00:00:00Z`),
  );
}

/** `2026-11-24` as the page's language writes a short day: "Nov 24". */
export function dayLabel(day: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/** A period of a series as its granularity names it. */
export function periodLabel(period: string, granularity: Granularity, lang: string): string {
  return granularity === 'month' ? monthLabel(period, lang) : dayLabel(period, lang);
}
