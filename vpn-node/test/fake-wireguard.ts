import { readFile } from 'node:fs/promises';
import { publicKeyOf } from '../state-dir.ts';
import type { Dump, PeerChange, WireGuard } from '../wg-cli.ts';

// A WireGuard interface in memory, for the agent's tests: peers with allowed IPs and the
// counters `wg show dump` would print, traffic moved by the test, and the ways a real
// interface surprises its agent (restarted empty, a peer's counters starting over, gone).

interface FakePeer {
  allowedIps: string[];
  rx: number;
  tx: number;
  /** Unix seconds; 0 = never. */
  handshake: number;
}

export class FakeWireGuard implements WireGuard {
  publicKey: string | null = null;
  listenPort = 0;
  readonly peers = new Map<string, FakePeer>();
  /** Every byte moved, whatever became of the counters since. */
  readonly moved = { rx: 0, tx: 0 };
  /** Each `setPeers` call, when it came. */
  readonly sets: Array<{ at: number; changes: readonly PeerChange[] }> = [];
  /** Fails every call, as `wg` does on an interface that is not there. */
  missing = false;
  /** Runs before each dump: traffic that keeps flowing while the agent measures. */
  beforeDump: (() => void) | null = null;

  async dump(): Promise<Dump> {
    this.check();
    this.beforeDump?.();
    return {
      publicKey: this.publicKey,
      listenPort: this.listenPort,
      peers: [...this.peers].map(([publicKey, peer]) => ({
        publicKey,
        allowedIps: [...peer.allowedIps],
        latestHandshake: peer.handshake,
        rx: peer.rx,
        tx: peer.tx,
      })),
    };
  }

  async setPeers(changes: readonly PeerChange[]): Promise<void> {
    this.check();
    this.sets.push({ at: Date.now(), changes });
    for (const change of changes) {
      if ('remove' in change) this.peers.delete(change.publicKey);
      else {
        const peer = this.peers.get(change.publicKey);
        if (peer) peer.allowedIps = [...change.allowedIps];
        else this.addPeer(change.publicKey, change.allowedIps);
      }
    }
  }

  async setKeyAndPort(privateKeyPath: string, listenPort: number): Promise<void> {
    this.check();
    this.publicKey = publicKeyOf(await readFile(privateKeyPath, 'utf8'));
    this.listenPort = listenPort;
  }

  /** A peer put there by someone else than the agent, with traffic of its own. */
  addPeer(publicKey: string, allowedIps: string[], counters = { rx: 0, tx: 0 }): void {
    this.peers.set(publicKey, { allowedIps: [...allowedIps], ...counters, handshake: 0 });
  }

  /** Bytes through a peer, with a handshake now. */
  traffic(publicKey: string, rx: number, tx: number): void {
    const peer = this.peers.get(publicKey);
    if (!peer) throw new Error(`no peer ${publicKey}`);
    peer.rx += rx;
    peer.tx += tx;
    peer.handshake = Math.floor(Date.now() / 1000);
    this.moved.rx += rx;
    this.moved.tx += tx;
  }

  /** The peer's counters start over, as when it is removed and added back. */
  resetCounters(publicKey: string): void {
    const peer = this.peers.get(publicKey);
    if (peer) Object.assign(peer, { rx: 0, tx: 0, handshake: 0 });
  }

  /** wireguard-go restarted: no key, no port, no peers. */
  restart(): void {
    this.publicKey = null;
    this.listenPort = 0;
    this.peers.clear();
  }

  private check(): void {
    if (this.missing) throw new Error('Unable to access interface: No such device');
  }
}
