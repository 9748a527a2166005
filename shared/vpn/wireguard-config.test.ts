import { describe, expect, it } from 'vitest';
import { configFileName, renderWireGuardConfig } from './wireguard-config.ts';

describe('renderWireGuardConfig', () => {
  it('writes the sections wg-quick reads', () => {
    const text = renderWireGuardConfig(
      {
        address: ['10.8.0.5/32', 'fd42::5/128'],
        dns: ['10.8.0.1'],
        peer: {
          public_key: `${'S'.repeat(43)}=`,
          endpoint: 'nl-1.vpn.example:51820',
          allowed_ips: ['0.0.0.0/0', '::/0'],
          persistent_keepalive: 25,
        },
      },
      `${'P'.repeat(43)}=`,
    );
    expect(text).toBe(
      [
        '[Interface]',
        `PrivateKey = ${'P'.repeat(43)}=`,
        'Address = 10.8.0.5/32, fd42::5/128',
        'DNS = 10.8.0.1',
        '',
        '[Peer]',
        `PublicKey = ${'S'.repeat(43)}=`,
        'Endpoint = nl-1.vpn.example:51820',
        'AllowedIPs = 0.0.0.0/0, ::/0',
        'PersistentKeepalive = 25',
        '',
      ].join('\n'),
    );
  });
});

describe('configFileName', () => {
  it.each([
    ['My Laptop', 'My-Laptop.conf'],
    ['Téléphone de Zoé', 'Telephone-de-Zo.conf'],
    ['Телефон', 'wireguard.conf'],
    ['  ', 'wireguard.conf'],
  ])('%s → %s', (name, file) => expect(configFileName(name)).toBe(file));
});
