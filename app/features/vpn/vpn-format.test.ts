import { describe, expect, it } from 'vitest';
import { formatRelative, usageFraction } from './vpn-format.ts';

describe('VPN times and usage', () => {
  it('says how long ago a handshake was, anything within the minute as now', () => {
    const now = Date.parse('2026-11-28T12:00:00Z');
    const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();
    const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
    expect(formatRelative(ago(20), 'en', now)).toBe(rtf.format(0, 'second'));
    expect(formatRelative(ago(120), 'en', now)).toBe('2 minutes ago');
    expect(formatRelative(ago(86_400), 'en', now)).toBe('yesterday');
  });

  it('measures usage against the limit', () => {
    expect(usageFraction(25, 100)).toBe(0.25);
    expect(usageFraction(150, 100)).toBe(1);
    expect(usageFraction(150, null)).toBe(0);
  });
});
