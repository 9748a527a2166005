import { describe, expect, it } from 'vitest';
import { renderWireGuardConfig } from '#shared/vpn/wireguard-config.ts';
import { QR_LONG_TEXT, qrErrorCorrection, qrSvg } from './qr-code.ts';

const KEY = `${'B'.repeat(43)}=`;

const conf = (dualStack: boolean) =>
  renderWireGuardConfig(
    {
      address: dualStack ? ['10.8.0.2/32', 'fd42:42:42::2/128'] : ['10.8.0.2/32'],
      dns: dualStack ? ['10.8.0.1', 'fd42:42:42::1'] : ['10.8.0.1'],
      peer: {
        public_key: KEY,
        endpoint: dualStack ? 'nl-amsterdam-1.vpn.example.com:51820' : '203.0.113.5:51820',
        allowed_ips: dualStack ? ['0.0.0.0/0', '::/0'] : ['0.0.0.0/0'],
        persistent_keepalive: 25,
      },
    },
    KEY,
  );

describe('the QR code of a configuration', () => {
  it.each([
    ['a short text', 'x'.repeat(10), 'M'],
    ['the limit itself', 'x'.repeat(QR_LONG_TEXT), 'M'],
    ['one character over', 'x'.repeat(QR_LONG_TEXT + 1), 'L'],
    ['an IPv4-only .conf', conf(false), 'M'],
    ['a dual-stack .conf with a host name', conf(true), 'L'],
  ])('uses level %s for %s', (_, text, level) => {
    expect(qrErrorCorrection(text)).toBe(level);
  });

  it('draws an SVG at the level chosen', async () => {
    const text = conf(true);
    const svg = await qrSvg(text);
    expect(svg.startsWith('<svg')).toBe(true);
    const { create } = await import('qrcode');
    const size = create(text, { errorCorrectionLevel: 'L' }).modules.size;
    // The SVG's view box is the modules plus the two-module margin on each side.
    expect(svg).toContain(`viewBox="0 0 ${size + 4} ${size + 4}"`);
    expect(create(text, { errorCorrectionLevel: 'M' }).modules.size).toBeGreaterThan(size);
  });
});
