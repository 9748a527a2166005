import { describe, expect, it } from 'vitest';
import { formatBytes, relativeTime } from './fleet-format.ts';

describe('fleet figures', () => {
  it.each([
    [0, '0 kB'],
    [512, '0.5 kB'],
    [3_203_180_993, '3.2 GB'],
    [14_601_323_153, '14.6 GB'],
    [2_500_000_000_000, '2.5 TB'],
  ])('%d bytes read as %s', (bytes, text) => {
    expect(formatBytes(bytes, 'en')).toBe(text);
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
  });
});
