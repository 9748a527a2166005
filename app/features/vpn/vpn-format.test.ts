import { describe, expect, it } from 'vitest';
import { formatBytes, formatRelative, regionName, usageFraction } from './vpn-format.ts';

// Expected strings are built with Intl itself: Node's ICU and Chromium's differ in spaces.
const unit = (lang: string, value: number, name: string, digits = 1) =>
  new Intl.NumberFormat(lang, {
    style: 'unit',
    unit: name,
    unitDisplay: 'short',
    maximumFractionDigits: digits,
  }).format(value);

describe('VPN sizes and times in the page language', () => {
  it.each([
    [0, 0, 'kilobyte'],
    [500, 0.5, 'kilobyte'],
    [999_999, 1000, 'kilobyte'],
    [1_000_000, 1, 'megabyte'],
    [3_200_000_000, 3.2, 'gigabyte'],
    [14_649_000_000, 14.6, 'gigabyte'],
    [250_000_000_000, 250, 'gigabyte'],
    [2_000_000_000_000, 2, 'terabyte'],
  ])('writes %d bytes as %d %s (decimal units)', (bytes, value, name) => {
    const digits = value >= 100 ? 0 : 1;
    expect(formatBytes(bytes, 'en')).toBe(unit('en', value, name, digits));
    expect(formatBytes(bytes, 'ru')).toBe(unit('ru', value, name, digits));
  });

  it('says how long ago a handshake was', () => {
    const now = Date.parse('2026-11-28T12:00:00Z');
    const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();
    const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
    expect(formatRelative(ago(20), 'en', now)).toBe(rtf.format(0, 'second'));
    expect(formatRelative(ago(120), 'en', now)).toBe('2 minutes ago');
    expect(formatRelative(ago(3 * 3600), 'en', now)).toBe('3 hours ago');
    expect(formatRelative(ago(86_400), 'en', now)).toBe('yesterday');
    expect(formatRelative(ago(120), 'nl', now)).toBe(
      new Intl.RelativeTimeFormat('nl', { numeric: 'auto' }).format(-2, 'minute'),
    );
  });

  it('names countries and measures usage', () => {
    expect(regionName('DE', 'en')).toBe('Germany');
    expect(regionName('DE', 'fr')).toBe('Allemagne');
    expect(usageFraction(25, 100)).toBe(0.25);
    expect(usageFraction(150, 100)).toBe(1);
    expect(usageFraction(150, null)).toBe(0);
  });
});
