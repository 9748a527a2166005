import type { NodePeer } from '#shared/contracts/vpn-node.ts';
import { formatIPv4, formatIPv6, parseIPv4, parseIPv6 } from '#shared/vpn/addresses.ts';
import { isWireGuardKey } from '#shared/vpn/wireguard-key.ts';
import type { DumpPeer, PeerChange } from './wg-cli.ts';

// What makes the interface's peers equal to the API's set: peers it lists are added or get
// its allowed IPs, every other peer goes. Pure, so the rule is tested as a table.

/**
 * A CIDR as `wg` prints it (host bits cleared, RFC 5952 IPv6), or null when it is none: the
 * API's text and the interface's are compared in this form, so `fd00:0::2/128` and
 * `fd00::2/128` are the same route and nothing is rewritten on every sync.
 */
export function canonicalCidr(text: string): string | null {
  const [address = '', prefixText, extra] = text.trim().split('/');
  if (prefixText === undefined || extra !== undefined || !/^\d{1,3}$/.test(prefixText)) {
    return null;
  }
  const prefix = Number(prefixText);
  const v4 = parseIPv4(address);
  if (v4 !== null) {
    if (prefix > 32) return null;
    return `${formatIPv4(v4 & (((1n << 32n) - 1n) ^ ((1n << BigInt(32 - prefix)) - 1n)))}/${prefix}`;
  }
  const v6 = parseIPv6(address);
  if (v6 === null || prefix > 128) return null;
  return `${formatIPv6(v6 & (((1n << 128n) - 1n) ^ ((1n << BigInt(128 - prefix)) - 1n)))}/${prefix}`;
}

/** The peers `wg` can take, with canonical routes, and the ones it would refuse. */
export function usablePeers(peers: readonly NodePeer[]): {
  usable: NodePeer[];
  refused: NodePeer[];
} {
  const usable = new Map<string, NodePeer>();
  const refused: NodePeer[] = [];
  for (const peer of peers) {
    const routes = peer.allowed_ips.map(canonicalCidr);
    // One bad peer in a `wg set` batch fails the whole batch: leave it out, alone.
    if (!isWireGuardKey(peer.public_key) || routes.some((route) => route === null)) {
      refused.push(peer);
      continue;
    }
    const allowed = [...new Set(routes as string[])].sort();
    usable.set(peer.public_key, { public_key: peer.public_key, allowed_ips: allowed });
  }
  return { usable: [...usable.values()], refused };
}

function sameRoutes(wanted: readonly string[], present: readonly string[]): boolean {
  const canonical = present.map((route) => canonicalCidr(route) ?? route).sort();
  return wanted.length === canonical.length && wanted.every((route, i) => route === canonical[i]);
}

/**
 * The `wg set` changes from `current` to `desired` (usable peers, canonical routes):
 * removals first, then additions and route changes; nothing for a peer already right.
 */
export function peerChanges(
  desired: readonly NodePeer[],
  current: readonly DumpPeer[],
): PeerChange[] {
  const wanted = new Map(desired.map((peer) => [peer.public_key, peer.allowed_ips]));
  const present = new Map(current.map((peer) => [peer.publicKey, peer.allowedIps]));
  const removals: PeerChange[] = current
    .filter((peer) => !wanted.has(peer.publicKey))
    .map((peer) => ({ publicKey: peer.publicKey, remove: true }));
  const updates: PeerChange[] = [];
  for (const [publicKey, allowedIps] of wanted) {
    const routes = present.get(publicKey);
    if (routes === undefined || !sameRoutes(allowedIps, routes)) {
      updates.push({ publicKey, allowedIps });
    }
  }
  return [...removals, ...updates];
}
