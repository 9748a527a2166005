import { describe, expect, it } from 'vitest';
import type { NodePeer } from '#shared/contracts/vpn-node.ts';
import { canonicalCidr, peerChanges, usablePeers } from './peer-sync.ts';
import type { DumpPeer } from './wg-cli.ts';

const K1 = 'xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=';
const K2 = 'TrMvSoP4jYQlY6RIzBgbssQqY3vxI2Pi+y71lOWWXX0=';
const K3 = 'HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw=';

describe('canonicalCidr', () => {
  it.each([
    ['10.8.0.2/32', '10.8.0.2/32'],
    [' 10.8.0.2/32 ', '10.8.0.2/32'],
    ['10.8.0.5/24', '10.8.0.0/24'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['fd00:8::2/128', 'fd00:8::2/128'],
    ['FD00:0008:0:0:0:0:0:2/128', 'fd00:8::2/128'],
    ['fd00:8::2/64', 'fd00:8::/64'],
    ['::/0', '::/0'],
    ['10.8.0.2', null],
    ['10.8.0.2/33', null],
    ['fd00::2/129', null],
    ['10.8.0.256/32', null],
    ['host/32', null],
    ['10.8.0.2/32/1', null],
    ['10.8.0.2/-1', null],
  ])('%s → %s', (text, canonical) => {
    expect(canonicalCidr(text)).toBe(canonical);
  });
});

describe('usablePeers', () => {
  it('keeps peers wg can take, with sorted canonical routes, once a key', () => {
    const { usable, refused } = usablePeers([
      { public_key: K1, allowed_ips: ['fd00:8:0::2/128', '10.8.0.2/32', '10.8.0.2/32'] },
      { public_key: 'not-a-key', allowed_ips: ['10.8.0.3/32'] },
      { public_key: K2, allowed_ips: ['10.8.0.4'] },
      { public_key: K3, allowed_ips: [] },
      { public_key: K3, allowed_ips: ['10.8.0.5/32'] },
    ]);
    expect(usable).toEqual([
      { public_key: K1, allowed_ips: ['10.8.0.2/32', 'fd00:8::2/128'] },
      { public_key: K3, allowed_ips: ['10.8.0.5/32'] },
    ]);
    expect(refused.map((peer) => peer.public_key)).toEqual(['not-a-key', K2]);
  });
});

const dumpPeer = (publicKey: string, allowedIps: string[]): DumpPeer => ({
  publicKey,
  allowedIps,
  latestHandshake: 0,
  rx: 0,
  tx: 0,
});
const nodePeer = (public_key: string, allowed_ips: string[]): NodePeer => ({
  public_key,
  allowed_ips,
});

describe('peerChanges', () => {
  it.each([
    { name: 'nothing to nothing', desired: [], current: [], changes: [] },
    {
      name: 'a new peer is added',
      desired: [nodePeer(K1, ['10.8.0.2/32'])],
      current: [],
      changes: [{ publicKey: K1, allowedIps: ['10.8.0.2/32'] }],
    },
    {
      name: 'a peer the API does not list is removed',
      desired: [nodePeer(K1, ['10.8.0.2/32'])],
      current: [dumpPeer(K1, ['10.8.0.2/32']), dumpPeer(K2, ['10.8.0.9/32'])],
      changes: [{ publicKey: K2, remove: true }],
    },
    {
      name: 'changed routes are replaced',
      desired: [nodePeer(K1, ['10.8.0.2/32', 'fd00:8::2/128'])],
      current: [dumpPeer(K1, ['10.8.0.2/32'])],
      changes: [{ publicKey: K1, allowedIps: ['10.8.0.2/32', 'fd00:8::2/128'] }],
    },
    {
      name: 'the same routes in another order or spelling change nothing',
      desired: [nodePeer(K1, ['10.8.0.2/32', 'fd00:8::2/128'])],
      current: [dumpPeer(K1, ['fd00:8:0:0::2/128', '10.8.0.2/32'])],
      changes: [],
    },
    {
      name: 'removals come before additions',
      desired: [nodePeer(K3, ['10.8.0.2/32'])],
      current: [dumpPeer(K1, ['10.8.0.2/32'])],
      changes: [
        { publicKey: K1, remove: true },
        { publicKey: K3, allowedIps: ['10.8.0.2/32'] },
      ],
    },
    {
      name: 'an empty set removes every peer',
      desired: [],
      current: [dumpPeer(K1, ['10.8.0.2/32']), dumpPeer(K2, [])],
      changes: [
        { publicKey: K1, remove: true },
        { publicKey: K2, remove: true },
      ],
    },
  ])('$name', ({ desired, current, changes }) => {
    expect(peerChanges(usablePeers(desired).usable, current)).toEqual(changes);
  });
});
