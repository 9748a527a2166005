import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';

/**
 * Whether the hop at `hop` (0: the peer of the TCP connection, 1: the address that peer
 * wrote last into X-Forwarded-For, …) is a proxy of ours, whose word about the hop before it
 * may be believed. Fastify takes the same function as `trustProxy`, so `request.ip` and the
 * websocket's client address follow one rule.
 */
export type ProxyTrust = (address: string, hop: number) => boolean;

/** proxy-addr's names for address ranges. */
const NAMES = ['loopback', 'linklocal', 'uniquelocal'];
/** Where a load balancer in a private network, a sidecar or a local proxy reaches us from. */
const PRIVATE_PEER = proxyAddr.compile(NAMES);

const WORDS: Record<string, boolean> = { true: true, yes: true, false: false, no: false };

/**
 * Reads TRUST_PROXY: `false` (no proxy), a hop count, proxy addresses or CIDRs separated by
 * commas, or `true` (every hop). Throws a TypeError on anything else.
 *
 * Every proxy appends the address it was reached from to X-Forwarded-For, and a client may
 * send the header with any entries it likes, so only entries written by our own proxies are
 * true, counted from the right. `true` believes every entry, the leftmost included: right
 * only when the proxy in front replaces the header and nothing reaches the server around it.
 *
 * A hop count alone cannot tell our load balancer from a client that connects directly and
 * sends enough entries (Fastify itself no longer takes a number for that reason). Load
 * balancers reach their servers from private addresses, so a hop count also needs the peer
 * of the connection to be loopback, link-local or private; anything else is a client,
 * counted at its own address. A proxy on a public address must be listed by address.
 */
export function parseTrustProxy(value: string): ProxyTrust | false {
  const word = WORDS[value.toLowerCase()];
  if (word !== undefined) return word && (() => true);
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops === 0) return false;
    return (address, hop) => hop < hops && (hop > 0 || PRIVATE_PEER(address, hop));
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new TypeError('no proxy address');
  // Written out in full: proxy-addr would also read `1.5` as 1.0.0.5, surely not what was meant.
  const unclear = entries.find(
    (entry) => !NAMES.includes(entry) && isIP(entry.split('/')[0] ?? '') === 0,
  );
  if (unclear !== undefined) throw new TypeError(`not a proxy address: ${unclear}`);
  // Throws on a bad subnet (10.0.0.0/33).
  return proxyAddr.compile(entries);
}

/** The client's address as Fastify's `request.ip` says it, for a raw request (an upgrade). */
export function clientAddress(request: IncomingMessage, trust: ProxyTrust | false): string {
  const peer = request.socket.remoteAddress;
  if (!trust || peer === undefined) return peer ?? 'unknown';
  return proxyAddr(request, trust);
}
