import { describe, expect, it } from 'vitest';
import {
  endpointText,
  formatIPv6,
  hostAddress,
  hostRoute,
  isEndpointHost,
  lastHost,
  parseIPv6,
  parsePool,
  serverInterfaceAddress,
} from './addresses.ts';

describe('IPv6 text', () => {
  it.each([
    ['::', '::'],
    ['::1', '::1'],
    ['fd42:0:0:0:0:0:0:2', 'fd42::2'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:0DB8:0000:0000:0000:0000:0002:0001', '2001:db8::2:1'],
    ['1:0:1:0:1:0:1:0', '1:0:1:0:1:0:1:0'],
  ])('%s reads back as %s (RFC 5952)', (input, expected) => {
    const value = parseIPv6(input);
    expect(value).not.toBeNull();
    expect(formatIPv6(value ?? 0n)).toBe(expected);
  });

  it.each(['1::2::3', '12345::', 'g::1', '1:2:3:4:5:6:7:8:9', ':1', '1:2:3:4:5:6:7'])(
    'refuses %s',
    (input) => expect(parseIPv6(input)).toBeNull(),
  );
});

describe('pools', () => {
  it('hands out host addresses after the server’s own', () => {
    const v4 = parsePool('10.8.0.0/16', 4);
    const v6 = parsePool('fd42:42:42::/64', 6);
    if (!v4 || !v6) throw new Error('pools should parse');
    expect(serverInterfaceAddress(v4)).toBe('10.8.0.1/16');
    expect(hostRoute(v4, 2)).toBe('10.8.0.2/32');
    expect(hostAddress(v4, 256)).toBe('10.8.1.0');
    expect(hostRoute(v6, 2)).toBe('fd42:42:42::2/128');
    expect(lastHost(v4)).toBe(65_534);
    expect(lastHost(parsePool('10.0.0.0/29', 4) ?? v4)).toBe(6);
    expect(lastHost(v6)).toBe(2_000_000_000);
  });

  it.each([
    ['10.8.0.1/16', 4],
    ['10.8.0.0', 4],
    ['10.8.0.0/30', 4],
    ['10.8.0.0/7', 4],
    ['300.1.1.0/24', 4],
    ['fd42::/47', 6],
    ['fd42::1/64', 6],
    ['10.8.0.0/16', 6],
    ['fd42::/64', 4],
  ] as const)('refuses %s as an IPv%s pool', (text, family) => {
    expect(parsePool(text, family)).toBeNull();
  });
});

describe('endpoint hosts', () => {
  it.each(['vpn.example.com', 'nl-ams-1.vpn.example', '198.51.100.7', '2001:db8::7', 'a.b'])(
    'takes %s',
    (host) => expect(isEndpointHost(host)).toBe(true),
  );
  it.each([
    'localhost',
    '-bad.example.com',
    'bad-.example.com',
    'under_score.example.com',
    'example.123',
    '256.1.1.1',
    'http://vpn.example.com',
    'vpn.example.com:51820',
    '',
    `${'a'.repeat(64)}.com`,
  ])('refuses %s', (host) => expect(isEndpointHost(host)).toBe(false));

  it('brackets IPv6 endpoints', () => {
    expect(endpointText('2001:db8::7', 51820)).toBe('[2001:db8::7]:51820');
    expect(endpointText('vpn.example.com', 51820)).toBe('vpn.example.com:51820');
  });
});
