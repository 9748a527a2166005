import { describe, expect, it } from 'vitest';
import { formatBytes, regionName, relativeTime } from './traffic-format.ts';

// Expected strings are built with Intl itself: Node's ICU and Chromium's differ in spaces.
const unit = (lang: string, value: number, name: string, digits = 1) =>
  new Intl.NumberFormat(lang, {
    style: 'unit',
    unit: name,
    unitDisplay: 'short',
    maximumFractionDigits: digits,
  }).format(value);

describe('traffic, moments and countries in the page language', () => {
  it.each([
    [0, 0, 'kilobyte'],
    [500, 0.5, 'kilobyte'],
    [999_999, 1000, 'kilobyte'],
    [1_000_000, 1, 'megabyte'],
    [3_203_180_993, 3.2, 'gigabyte'],
    [14_649_000_000, 14.6, 'gigabyte'],
    [250_000_000_000, 250, 'gigabyte'],
    [2_500_000_000_000, 2.5, 'terabyte'],
  ])('writes %d bytes as %d %s (decimal units)', (bytes, value, name) => {
    const digits = value >= 100 ? 0 : 1;
    expect(formatBytes(bytes, 'en')).toBe(unit('en', value, name, digits));
    expect(formatBytes(bytes, 'ru')).toBe(unit('ru', value, name, digits));
  });

  it('says moments in the largest whole unit', () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();
    expect(relativeTime(ago(0), 'en', now)).toBe('now');
    expect(relativeTime(ago(12), 'en', now)).toBe('12 seconds ago');
    expect(relativeTime(ago(170), 'en', now)).toBe('3 minutes ago');
    expect(relativeTime(ago(3 * 3600), 'en', now)).toBe('3 hours ago');
    expect(relativeTime(ago(86_400), 'en', now)).toBe('yesterday');
    expect(relativeTime(ago(40 * 86_400), 'en', now)).toBe('last month');
    expect(relativeTime(ago(120), 'nl', now)).toBe(
      new Intl.RelativeTimeFormat('nl', { numeric: 'auto' }).format(-2, 'minute'),
    );
  });

  it('names countries', () => {
    expect(regionName('DE', 'en')).toBe('Germany');
    expect(regionName('DE', 'fr')).toBe('Allemagne');
  });
});
