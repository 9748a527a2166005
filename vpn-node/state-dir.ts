import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { Counters } from './usage-counter.ts';

// What the node keeps between runs, in one folder (0700): its WireGuard private key (made
// here; our database only ever sees the public half), and `state.json`: the report stream,
// the next report number and the counters the last report saw. Every write is atomic, so a
// crash or power cut leaves either the old file or the new one, never half of one.

/** Writes `data` to `path` so that a crash leaves the old content or the new, whole. */
export async function writeFileAtomic(path: string, data: string, mode = 0o600): Promise<void> {
  const temp = `${path}.tmp`;
  const file = await open(temp, 'w', mode);
  try {
    await file.writeFile(data);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temp, path);
  await syncFolder(dirname(path));
}

/** Makes a rename or unlink in `folder` survive a power cut (the entry lives in the folder). */
export async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

// An X25519 key in PKCS#8 DER is this fixed header and then the 32 raw bytes `wg` uses.
const X25519_PKCS8_HEADER = Buffer.from('302e020100300506032b656e04220420', 'hex');

/** A new private key as `wg genkey` prints it: 32 raw bytes, base64. */
export function newPrivateKey(): string {
  const { privateKey } = generateKeyPairSync('x25519');
  return privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-32).toString('base64');
}

/** The public key of a base64 private key, as `wg pubkey` prints it. */
export function publicKeyOf(privateKeyBase64: string): string {
  const raw = Buffer.from(privateKeyBase64.trim(), 'base64');
  if (raw.length !== 32) throw new Error('a WireGuard private key is 32 bytes of base64');
  const key = createPrivateKey({
    key: Buffer.concat([X25519_PKCS8_HEADER, raw]),
    format: 'der',
    type: 'pkcs8',
  });
  return createPublicKey(key)
    .export({ format: 'der', type: 'spki' })
    .subarray(-32)
    .toString('base64');
}

const counterValue = z.number().int().min(0);
const stateFile = z.object({
  stream: z.uuid(),
  next_seq: z.number().int().min(1),
  /** Null until the first measurement: see `StateDir.counters`. */
  counters: z
    .record(z.string(), z.object({ rx: counterValue, tx: counterValue, handshake: counterValue }))
    .nullable(),
});

const lastPeersFile = z.object({
  listen_port: z.number().int().min(1).max(65_535),
  peers: z.array(z.object({ public_key: z.string(), allowed_ips: z.array(z.string()) })),
});

/** The peers the API last gave, and the port: what the interface held when all was well. */
export interface LastPeers {
  listenPort: number;
  peers: { public_key: string; allowed_ips: string[] }[];
}

export class StateDir {
  private constructor(
    readonly dir: string,
    readonly privateKeyPath: string,
    readonly publicKey: string,
    readonly stream: string,
    private seq: number,
    private seen: Counters | null,
  ) {}

  /** Opens the folder, making it, the key pair and a new stream on first use. */
  static async open(dir: string): Promise<StateDir> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // A folder made by hand or by a package may be wider than the key inside deserves.
    await chmod(dir, 0o700);
    const privateKeyPath = join(dir, 'private.key');
    const privateKey = await readOrCreate(privateKeyPath, () => `${newPrivateKey()}\n`);
    let publicKey: string;
    try {
      publicKey = publicKeyOf(privateKey);
    } catch {
      // Never replaced silently: a new key would be refused by the API as another machine.
      throw new Error(`${privateKeyPath} is not a WireGuard private key; restore it or remove it`);
    }
    const statePath = join(dir, 'state.json');
    const text = await readOrCreate(statePath, () =>
      JSON.stringify({ stream: randomUUID(), next_seq: 1, counters: null }),
    );
    const state = stateFile.parse(JSON.parse(text));
    const counters = state.counters && new Map(Object.entries(state.counters));
    return new StateDir(dir, privateKeyPath, publicKey, state.stream, state.next_seq, counters);
  }

  /** The number the next report gets. */
  get nextSeq(): number {
    return this.seq;
  }

  /**
   * The counters the last report saw, or null when this folder has never measured: then
   * whatever the interface already counted was reported by a node before it (a folder
   * lost and made anew) and must be taken as the starting point, not as new traffic.
   */
  get counters(): Counters | null {
    return this.seen;
  }

  /**
   * The peers the API last gave (`peers.json`), or null: a host rebooted while the API
   * cannot be reached puts them back, so its customers keep connecting meanwhile.
   */
  async lastPeers(): Promise<LastPeers | null> {
    try {
      const saved = lastPeersFile.parse(
        JSON.parse(await readFile(join(this.dir, 'peers.json'), 'utf8')),
      );
      return { listenPort: saved.listen_port, peers: saved.peers };
    } catch {
      // None yet, or a file from another version: the API's answer will do.
      return null;
    }
  }

  async saveLastPeers(last: LastPeers): Promise<void> {
    const data = { listen_port: last.listenPort, peers: last.peers };
    await writeFileAtomic(join(this.dir, 'peers.json'), JSON.stringify(data));
  }

  /** Writes the next number and the counters together, atomically. */
  async save(nextSeq: number, counters: Counters | null): Promise<void> {
    const state = {
      stream: this.stream,
      next_seq: nextSeq,
      counters: counters && Object.fromEntries(counters),
    };
    await writeFileAtomic(join(this.dir, 'state.json'), JSON.stringify(state));
    this.seq = nextSeq;
    this.seen = counters;
  }
}

async function readOrCreate(path: string, create: () => string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const text = create();
  await writeFileAtomic(path, text);
  return text;
}
