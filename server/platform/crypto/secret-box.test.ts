import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAppKey } from './app-key.ts';
import { SecretBox } from './secret-box.ts';

const KEY = 'k'.repeat(40);

describe('SecretBox', () => {
  it('opens what it sealed, and seals the same text differently each time', () => {
    const box = new SecretBox(KEY, 'totp');
    const a = box.seal('JBSWY3DPEHPK3PXP');
    const b = box.seal('JBSWY3DPEHPK3PXP');
    expect(a).not.toBe(b);
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(a)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('refuses a value sealed for another purpose or under another key', () => {
    const sealed = new SecretBox(KEY, 'totp').seal('secret');
    expect(() => new SecretBox(KEY, 'other').open(sealed)).toThrow();
    expect(() => new SecretBox('x'.repeat(40), 'totp').open(sealed)).toThrow();
  });

  it('refuses a tampered value', () => {
    const box = new SecretBox(KEY, 'totp');
    const sealed = box.seal('secret');
    // One bit of the ciphertext flipped (a character swap could leave the bytes as they were).
    const [version, iv, body] = sealed.split('.');
    const bytes = Buffer.from(body ?? '', 'base64url');
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    const flipped = `${version}.${iv}.${bytes.toString('base64url')}`;
    expect(flipped).not.toBe(sealed);
    expect(() => box.open(flipped)).toThrow();
    expect(() => box.open('plain text')).toThrow();
  });
});

describe('loadAppKey', () => {
  it('prefers APP_SECRET', async () => {
    expect(await loadAppKey({ appSecret: KEY, dataDir: 'memory://' })).toBe(KEY);
  });

  it('generates a key once into the data folder and reads it back after a restart', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'app-key-'));
    try {
      const dataDir = path.join(dir, 'data');
      const first = await loadAppKey({ appSecret: undefined, dataDir });
      expect(first).toMatch(/^[\w-]{43}$/);
      expect(await loadAppKey({ appSecret: undefined, dataDir })).toBe(first);
      expect((await readFile(path.join(dataDir, 'app-secret'), 'utf8')).trim()).toBe(first);
      expect((await stat(path.join(dataDir, 'app-secret'))).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
