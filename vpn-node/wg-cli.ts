import { execFile } from 'node:child_process';

// The agent drives an interface someone else made (kernel or wireguard-go) through the `wg`
// command only: `wg show IFACE dump` to read it, `wg set` to change it. Everything else in
// the agent talks to the `WireGuard` interface below, so tests drive it with a fake.

export interface DumpPeer {
  publicKey: string;
  allowedIps: string[];
  /** Unix seconds of the latest handshake; 0 = never. */
  latestHandshake: number;
  /** Bytes received from the peer and sent to it since it was added to the interface. */
  rx: number;
  tx: number;
}

export interface Dump {
  /** Null while the interface has no private key. */
  publicKey: string | null;
  listenPort: number;
  peers: DumpPeer[];
}

export type PeerChange =
  | { publicKey: string; remove: true }
  /** Adds the peer, or replaces its allowed IPs with exactly these. */
  | { publicKey: string; allowedIps: string[] };

export interface WireGuard {
  dump(): Promise<Dump>;
  setPeers(changes: readonly PeerChange[]): Promise<void>;
  setKeyAndPort(privateKeyPath: string, listenPort: number): Promise<void>;
}

const NONE = '(none)';

function counter(text: string, what: string, line: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value)) {
    throw new Error(`wg dump line ${line}: ${what} is not a count`);
  }
  return value;
}

/**
 * `wg show IFACE dump`: the interface (private-key, public-key, listen-port, fwmark), then a
 * line a peer (public-key, preshared-key, endpoint, allowed-ips, latest-handshake,
 * transfer-rx, transfer-tx, persistent-keepalive), tab-separated. Errors never quote a line:
 * the first one holds the private key.
 */
export function parseDump(text: string): Dump {
  const lines = text.split('\n').filter((line) => line !== '');
  const [head, ...rest] = lines.map((line) => line.split('\t'));
  if (head?.length !== 4) throw new Error('wg dump line 1: expected the 4 interface fields');
  const [, publicKey = NONE, listenPort = ''] = head;
  const peers = rest.map((fields, i): DumpPeer => {
    const line = i + 2;
    if (fields.length !== 8) throw new Error(`wg dump line ${line}: expected 8 peer fields`);
    const [key = '', , , allowedIps = NONE, handshake = '', rx = '', tx = ''] = fields;
    return {
      publicKey: key,
      allowedIps: allowedIps === NONE ? [] : allowedIps.split(','),
      latestHandshake: counter(handshake, 'latest-handshake', line),
      rx: counter(rx, 'transfer-rx', line),
      tx: counter(tx, 'transfer-tx', line),
    };
  });
  return {
    publicKey: publicKey === NONE ? null : publicKey,
    listenPort: counter(listenPort, 'listen-port', 1),
    peers,
  };
}

/**
 * Peers changed by one `wg set`: thousands at once keep each command line far below the
 * kernel's argument limit (~80 bytes a peer) while a full resync stays a handful of calls.
 */
export const PEERS_PER_WG_SET = 1_000;

/** The argument lists of the `wg set` calls that make `changes`, in order. */
export function setPeersArgs(interfaceName: string, changes: readonly PeerChange[]): string[][] {
  const calls: string[][] = [];
  for (let at = 0; at < changes.length; at += PEERS_PER_WG_SET) {
    const args = ['set', interfaceName];
    for (const change of changes.slice(at, at + PEERS_PER_WG_SET)) {
      args.push('peer', change.publicKey);
      // An empty list is valid: it leaves the peer with no allowed IPs.
      if ('remove' in change) args.push('remove');
      else args.push('allowed-ips', change.allowedIps.join(','));
    }
    calls.push(args);
  }
  return calls;
}

/** The real `wg` (wireguard-tools), run without a shell. */
export class WgCli implements WireGuard {
  constructor(
    private readonly binary: string,
    private readonly interfaceName: string,
    private readonly timeoutMs = 15_000,
  ) {}

  async dump(): Promise<Dump> {
    return parseDump(await this.run(['show', this.interfaceName, 'dump']));
  }

  async setPeers(changes: readonly PeerChange[]): Promise<void> {
    for (const args of setPeersArgs(this.interfaceName, changes)) await this.run(args);
  }

  async setKeyAndPort(privateKeyPath: string, listenPort: number): Promise<void> {
    await this.run([
      'set',
      this.interfaceName,
      'listen-port',
      String(listenPort),
      'private-key',
      privateKeyPath,
    ]);
  }

  private run(args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile(
        this.binary,
        args,
        // A dump is ~200 bytes a peer: room for far more peers than one host carries.
        { timeout: this.timeoutMs, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
        (error, stdout, stderr) => {
          if (!error) return resolve(stdout);
          const said = stderr.trim() || error.message;
          reject(new Error(`${this.binary} ${args.slice(0, 2).join(' ')} failed: ${said}`));
        },
      );
    });
  }
}
