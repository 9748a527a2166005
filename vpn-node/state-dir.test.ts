import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isWireGuardKey } from '#shared/vpn/wireguard-key.ts';
import { newPrivateKey, publicKeyOf, StateDir, writeFileAtomic } from './state-dir.ts';

let root: string;
let dir: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'vpn-node-state-'));
  dir = join(root, 'var', 'lib', 'vpn-node');
});
afterEach(() => rm(root, { recursive: true, force: true }));

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe('node key', () => {
  it('is 32 bytes of base64 both ways, as wg prints them', () => {
    const privateKey = newPrivateKey();
    expect(Buffer.from(privateKey, 'base64')).toHaveLength(32);
    expect(isWireGuardKey(publicKeyOf(privateKey))).toBe(true);
  });

  it('matches the RFC 7748 test vector', () => {
    // Alice's key pair of RFC 7748 §6.1.
    const alice = Buffer.from(
      '77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a',
      'hex',
    ).toString('base64');
    const expected = Buffer.from(
      '8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a',
      'hex',
    ).toString('base64');
    expect(publicKeyOf(alice)).toBe(expected);
  });

  it.runIf(existsSync('/usr/bin/wg'))('derives the public key `wg pubkey` does', () => {
    const privateKey = newPrivateKey();
    const fromWg = execFileSync('/usr/bin/wg', ['pubkey'], { input: `${privateKey}\n` });
    expect(publicKeyOf(privateKey)).toBe(fromWg.toString().trim());
  });
});

describe('StateDir', () => {
  it('makes the folder (0700), the private key (0600) and a stream on first use', async () => {
    const state = await StateDir.open(dir);
    expect(await modeOf(dir)).toBe(0o700);
    expect(state.privateKeyPath).toBe(join(dir, 'private.key'));
    expect(await modeOf(state.privateKeyPath)).toBe(0o600);
    const privateKey = await readFile(state.privateKeyPath, 'utf8');
    expect(privateKey).toMatch(/^[A-Za-z0-9+/]{43}=\n$/);
    expect(state.publicKey).toBe(publicKeyOf(privateKey));
    expect(state.stream).toMatch(/^[0-9a-f-]{36}$/);
    expect(state.nextSeq).toBe(1);
    expect(state.counters).toBeNull();
    expect(await readdir(dir)).toEqual(['private.key', 'state.json']);
  });

  it('keeps the key, stream, number and counters across restarts', async () => {
    const first = await StateDir.open(dir);
    const counters = new Map([[first.publicKey, { rx: 10, tx: 20, handshake: 30 }]]);
    await first.save(42, counters);

    const again = await StateDir.open(dir);
    expect(again.publicKey).toBe(first.publicKey);
    expect(again.stream).toBe(first.stream);
    expect(again.nextSeq).toBe(42);
    expect(again.counters).toEqual(counters);
    expect(await modeOf(join(dir, 'state.json'))).toBe(0o600);
  });

  it('narrows a folder made wider by hand', async () => {
    await mkdir(dir, { recursive: true });
    await chmod(dir, 0o755);
    await StateDir.open(dir);
    expect(await modeOf(dir)).toBe(0o700);
  });

  it('refuses a damaged private key rather than making another', async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'private.key'), 'not a key\n');
    await expect(StateDir.open(dir)).rejects.toThrow(/private.key is not a WireGuard private key/);
    expect(await readFile(join(dir, 'private.key'), 'utf8')).toBe('not a key\n');
  });
});

describe('writeFileAtomic', () => {
  it('replaces the whole file and leaves no temporary file', async () => {
    await mkdir(root, { recursive: true });
    const path = join(root, 'file.json');
    await writeFileAtomic(path, 'a much longer first content');
    await writeFileAtomic(path, 'second');
    expect(await readFile(path, 'utf8')).toBe('second');
    expect(await readdir(root)).toEqual(['file.json']);
  });

  it('writes over the half temporary file a crash left', async () => {
    const path = join(root, 'file.json');
    await writeFileAtomic(path, 'old');
    await writeFile(`${path}.tmp`, 'a half written n');
    expect(await readFile(path, 'utf8')).toBe('old');
    await writeFileAtomic(path, 'new');
    expect(await readFile(path, 'utf8')).toBe('new');
    expect(await readdir(root)).toEqual(['file.json']);
  });
});
