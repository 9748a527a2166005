import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stopChild } from '../../server/test/server-process.ts';

// Real WireGuard in network namespaces (the "Real WireGuard in the tests"): a "server"
// and a "client" namespace joined by a veth pair, userspace WireGuard (wireguard-go; these
// machines have no kernel module) in each. `wg` in the root namespace drives both interfaces
// through their sockets in /var/run/wireguard, which every namespace shares, so the node agent
// can run here, beside the API on 127.0.0.1, and drive the server namespace's interface.
// Names carry a random tag: a lab never meets another run's. Needs root.

const run = promisify(execFile);

export interface WireGuardLab {
  serverNs: string;
  clientNs: string;
  /** The interfaces' names (unique: their sockets are shared by every namespace). */
  serverInterface: string;
  clientInterface: string;
  /** The server namespace's address on the veth link: the endpoint customers connect to. */
  serverAddress: string;
  /** Runs `ip netns exec <ns> …`; answers stdout. */
  inServer(command: string[]): Promise<string>;
  inClient(command: string[]): Promise<string>;
  /** Gives the server's interface its tunnel addresses and brings it up. */
  upServer(addresses: readonly string[]): Promise<void>;
  /** Sets the client up from a downloaded `.conf`, as wg-quick would, minus DNS. */
  upClient(conf: string): Promise<void>;
  /** Pings `address` from the client through the tunnel; true when replies came. */
  ping(address: string, options?: { count?: number; size?: number }): Promise<boolean>;
  /** The server interface's peers as `wg show … dump` has them, by public key. */
  serverPeers(): Promise<Map<string, { rx: number; tx: number; handshake: number }>>;
  /** The client's latest handshake with its server, unix seconds (0: never). */
  clientHandshake(): Promise<number>;
  destroy(): Promise<void>;
}

export async function missingTools(): Promise<string | undefined> {
  if (process.getuid?.() !== 0) return 'not root (network namespaces need it)';
  for (const tool of ['ip', 'wg', 'wireguard-go', 'ping']) {
    try {
      await run('sh', ['-c', `command -v ${tool}`]);
    } catch {
      return `${tool} is not installed (wireguard-tools, wireguard-go, iproute2, iputils-ping)`;
    }
  }
  return undefined;
}

/** `Key = value` lines of a `.conf` section, as wg-quick reads them. */
export function confSection(conf: string, section: 'Interface' | 'Peer'): Map<string, string> {
  const values = new Map<string, string>();
  let current = '';
  for (const raw of conf.split('\n')) {
    const line = raw.trim();
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) current = header[1] ?? '';
    else if (current === section && line.includes('=')) {
      const at = line.indexOf('=');
      values.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
    }
  }
  return values;
}

export async function createWireGuardLab(): Promise<WireGuardLab> {
  const tag = randomBytes(3).toString('hex');
  const serverNs = `vpne2e-s-${tag}`;
  const clientNs = `vpne2e-c-${tag}`;
  const serverInterface = `wgs${tag}`;
  const clientInterface = `wgc${tag}`;
  const serverAddress = '192.168.77.1';
  const children: ChildProcess[] = [];
  const ip = (...args: string[]) => run('ip', args);
  const exec = async (ns: string, command: string[]) =>
    (await run('ip', ['netns', 'exec', ns, ...command])).stdout;

  await ip('netns', 'add', serverNs);
  await ip('netns', 'add', clientNs);
  await ip('link', 'add', `vs${tag}`, 'type', 'veth', 'peer', 'name', `vc${tag}`);
  await ip('link', 'set', `vs${tag}`, 'netns', serverNs);
  await ip('link', 'set', `vc${tag}`, 'netns', clientNs);
  await ip('-n', serverNs, 'address', 'add', `${serverAddress}/24`, 'dev', `vs${tag}`);
  await ip('-n', clientNs, 'address', 'add', '192.168.77.2/24', 'dev', `vc${tag}`);
  for (const [ns, link] of [
    [serverNs, `vs${tag}`],
    [clientNs, `vc${tag}`],
  ] as const) {
    await ip('-n', ns, 'link', 'set', link, 'up');
    await ip('-n', ns, 'link', 'set', 'lo', 'up');
  }

  const startWireGuard = async (ns: string, name: string) => {
    // -f: in the foreground. Its daemon mode re-executes itself in a loop here (DESIGN).
    const child = spawn('ip', ['netns', 'exec', ns, 'wireguard-go', '-f', name], {
      stdio: 'ignore',
      env: { ...process.env, WG_PROCESS_FOREGROUND: '1' },
    });
    children.push(child);
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      try {
        await run('wg', ['show', name]);
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    throw new Error(`wireguard-go did not make ${name}`);
  };
  await startWireGuard(serverNs, serverInterface);
  await startWireGuard(clientNs, clientInterface);

  const lab: WireGuardLab = {
    serverNs,
    clientNs,
    serverInterface,
    clientInterface,
    serverAddress,
    inServer: (command) => exec(serverNs, command),
    inClient: (command) => exec(clientNs, command),
    async upServer(addresses) {
      for (const address of addresses) {
        await ip('-n', serverNs, 'address', 'add', address, 'dev', serverInterface);
      }
      await ip('-n', serverNs, 'link', 'set', serverInterface, 'up');
    },
    async upClient(conf) {
      const face = confSection(conf, 'Interface');
      const peer = confSection(conf, 'Peer');
      // What `wg setconf` takes: the keys and the peer, without wg-quick's Address and DNS.
      const wgConf = [
        '[Interface]',
        `PrivateKey = ${face.get('PrivateKey')}`,
        '[Peer]',
        `PublicKey = ${peer.get('PublicKey')}`,
        `Endpoint = ${peer.get('Endpoint')}`,
        `AllowedIPs = ${peer.get('AllowedIPs')}`,
        `PersistentKeepalive = ${peer.get('PersistentKeepalive')}`,
        '',
      ].join('\n');
      const file = join(tmpdir(), `${clientInterface}.conf`);
      await writeFile(file, wgConf, { mode: 0o600 });
      await run('wg', ['setconf', clientInterface, file]);
      for (const address of (face.get('Address') ?? '').split(',').map((a) => a.trim())) {
        if (address) await ip('-n', clientNs, 'address', 'add', address, 'dev', clientInterface);
      }
      await ip('-n', clientNs, 'link', 'set', clientInterface, 'up');
      // Everything through the tunnel (AllowedIPs 0.0.0.0/0): the veth subnet stays direct,
      // so the endpoint is still reached over the link.
      await ip('-n', clientNs, 'route', 'add', 'default', 'dev', clientInterface);
    },
    async ping(address, options = {}) {
      try {
        await exec(clientNs, [
          'ping',
          '-c',
          String(options.count ?? 3),
          '-i',
          '0.2',
          '-W',
          '1',
          '-s',
          String(options.size ?? 56),
          address,
        ]);
        return true;
      } catch {
        return false;
      }
    },
    async serverPeers() {
      const { stdout } = await run('wg', ['show', serverInterface, 'dump']);
      const peers = new Map<string, { rx: number; tx: number; handshake: number }>();
      for (const line of stdout.trim().split('\n').slice(1)) {
        const [key, , , , handshake, rx, tx] = line.split('\t');
        if (key) {
          peers.set(key, { rx: Number(rx), tx: Number(tx), handshake: Number(handshake) });
        }
      }
      return peers;
    },
    async clientHandshake() {
      const { stdout } = await run('wg', ['show', clientInterface, 'latest-handshakes']);
      return Number(stdout.trim().split('\t')[1] ?? 0);
    },
    async destroy() {
      await Promise.allSettled(children.map((child) => stopChild(child)));
      await Promise.allSettled([ip('netns', 'delete', serverNs), ip('netns', 'delete', clientNs)]);
    },
  };
  return lab;
}
