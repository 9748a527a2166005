import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fromBase64, isWireGuardKey, toBase64 } from './wireguard-key.ts';

describe('isWireGuardKey', () => {
  it('takes 32 random bytes in base64, as wg genkey and wg pubkey print them', () => {
    for (let i = 0; i < 200; i += 1) {
      expect(isWireGuardKey(randomBytes(32).toString('base64'))).toBe(true);
    }
    const { publicKey } = generateKeyPairSync('x25519');
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
    expect(isWireGuardKey(raw.toString('base64'))).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['31 bytes', randomBytes(31).toString('base64')],
    ['33 bytes', randomBytes(33).toString('base64')],
    ['base64url', `${'ab-_'.repeat(10)}abcA=`],
    ['no padding', randomBytes(32).toString('base64').slice(0, 43)],
    ['stray bits in the last character', `${'A'.repeat(42)}B=`],
    ['spaces', ` ${randomBytes(32).toString('base64')}`],
    ['the zero key', `${'A'.repeat(43)}=`],
  ])('refuses %s', (_name, value) => {
    expect(isWireGuardKey(value)).toBe(false);
  });
});

describe('base64', () => {
  it('round-trips bytes the way Node encodes them', () => {
    const bytes = new Uint8Array(randomBytes(32));
    const text = toBase64(bytes);
    expect(text).toBe(Buffer.from(bytes).toString('base64'));
    expect(fromBase64(text)).toEqual(bytes);
  });
});
