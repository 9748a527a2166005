import { describe, expect, it } from 'vitest';
import {
  ACTIVE_WITHIN_S,
  type Counters,
  measureUsage,
  type PeerCounters,
} from './usage-counter.ts';
import type { DumpPeer } from './wg-cli.ts';

const K = 'xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=';
const NOW_S = 1_732_000_000;
const NOW_MS = NOW_S * 1000;

const seen = (counters: PeerCounters): Counters => new Map([[K, counters]]);
const onInterface = (rx: number, tx: number, latestHandshake = 0): DumpPeer => ({
  publicKey: K,
  allowedIps: ['10.8.0.2/32'],
  latestHandshake,
  rx,
  tx,
});
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

describe('measureUsage', () => {
  it.each([
    {
      name: 'a peer added since counts all its bytes',
      last: new Map(),
      now: onInterface(100, 200, NOW_S - 5),
      usage: { rx: 100, tx: 200, latest_handshake_at: iso(NOW_S - 5) },
    },
    {
      name: 'grown counters count the difference',
      last: seen({ rx: 100, tx: 200, handshake: NOW_S - 60 }),
      now: onInterface(150, 260, NOW_S - 60),
      usage: { rx: 50, tx: 60, latest_handshake_at: iso(NOW_S - 60) },
    },
    {
      name: 'unchanged counters and handshake leave the peer out',
      last: seen({ rx: 100, tx: 200, handshake: NOW_S - 60 }),
      now: onInterface(100, 200, NOW_S - 60),
      usage: null,
    },
    {
      name: 'a newer handshake alone is reported, with no bytes',
      last: seen({ rx: 100, tx: 200, handshake: NOW_S - 130 }),
      now: onInterface(100, 200, NOW_S - 10),
      usage: { rx: 0, tx: 0, latest_handshake_at: iso(NOW_S - 10) },
    },
    {
      name: 'rx gone down: a new run, both counters count whole',
      last: seen({ rx: 5_000, tx: 200, handshake: NOW_S - 60 }),
      now: onInterface(300, 250, NOW_S - 2),
      usage: { rx: 300, tx: 250, latest_handshake_at: iso(NOW_S - 2) },
    },
    {
      name: 'tx gone down: a new run too',
      last: seen({ rx: 100, tx: 9_000, handshake: NOW_S - 60 }),
      now: onInterface(120, 40, NOW_S - 60),
      usage: { rx: 120, tx: 40, latest_handshake_at: iso(NOW_S - 60) },
    },
    {
      name: 'a restarted interface with no traffic yet reports nothing',
      last: seen({ rx: 100, tx: 200, handshake: NOW_S - 60 }),
      now: onInterface(0, 0, 0),
      usage: null,
    },
    {
      name: 'a peer that never shook hands has a null handshake',
      last: new Map(),
      now: onInterface(0, 92, 0),
      usage: { rx: 0, tx: 92, latest_handshake_at: null },
    },
  ])('$name', ({ last, now, usage }) => {
    const measured = measureUsage(last, [now], NOW_MS);
    expect(measured.peers).toEqual(usage ? [{ public_key: K, ...usage }] : []);
    expect(measured.counters.get(K)).toEqual({
      rx: now.rx,
      tx: now.tx,
      handshake: now.latestHandshake,
    });
    expect(measured.peers.every((peer) => peer.rx >= 0 && peer.tx >= 0)).toBe(true);
  });

  it('forgets the counters of peers no longer on the interface', () => {
    expect(measureUsage(seen({ rx: 1, tx: 1, handshake: 0 }), [], NOW_MS).counters.size).toBe(0);
  });

  it.each([
    { name: 'just now', handshake: NOW_S, active: 1 },
    { name: 'three minutes ago', handshake: NOW_S - ACTIVE_WITHIN_S, active: 1 },
    { name: 'longer ago', handshake: NOW_S - ACTIVE_WITHIN_S - 1, active: 0 },
    { name: 'never', handshake: 0, active: 0 },
  ])('a handshake $name counts $active active', ({ handshake, active }) => {
    expect(measureUsage(new Map(), [onInterface(0, 0, handshake)], NOW_MS).activePeers).toBe(
      active,
    );
  });
});
