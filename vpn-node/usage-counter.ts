import type { PeerUsage } from '#shared/contracts/vpn-node.ts';
import type { DumpPeer } from './wg-cli.ts';

// WireGuard counts each peer's bytes from the moment the peer was added; the API wants the
// bytes since the previous report. Pure: the rules (and what a reset means) are a table test.

/** What the previous report saw of a peer. */
export interface PeerCounters {
  rx: number;
  tx: number;
  /** Unix seconds; 0 = never. */
  handshake: number;
}

export type Counters = Map<string, PeerCounters>;

/** A device counts as connected with a handshake this recent (WireGuard rekeys every 2 min). */
export const ACTIVE_WITHIN_S = 180;

export interface Usage {
  /** Peers that moved bytes or shook hands since `last`. */
  peers: PeerUsage[];
  activePeers: number;
  /** What the next measurement compares with: the peers on the interface now. */
  counters: Counters;
}

/**
 * Each peer's traffic since `last`. A peer `last` does not know was added since, so all its
 * bytes are new; a counter that went down means the peer's counters restarted (interface
 * restarted, peer re-added), so both of its counters start a new run and count whole.
 */
export function measureUsage(last: Counters, current: readonly DumpPeer[], nowMs: number): Usage {
  const peers: PeerUsage[] = [];
  const counters: Counters = new Map();
  let activePeers = 0;
  const nowS = Math.floor(nowMs / 1000);
  for (const peer of current) {
    const before = last.get(peer.publicKey);
    const newRun = !before || peer.rx < before.rx || peer.tx < before.tx;
    const rx = newRun ? peer.rx : peer.rx - before.rx;
    const tx = newRun ? peer.tx : peer.tx - before.tx;
    const handshake = peer.latestHandshake;
    if (rx > 0 || tx > 0 || handshake > (before?.handshake ?? 0)) {
      peers.push({
        public_key: peer.publicKey,
        rx,
        tx,
        latest_handshake_at: handshake > 0 ? new Date(handshake * 1000).toISOString() : null,
      });
    }
    if (handshake > 0 && nowS - handshake <= ACTIVE_WITHIN_S) activePeers += 1;
    counters.set(peer.publicKey, { rx: peer.rx, tx: peer.tx, handshake });
  }
  return { peers, activePeers, counters };
}
