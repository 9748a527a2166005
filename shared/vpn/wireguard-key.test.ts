import { describe, expect, it } from 'vitest';
import { fromBase64, isWireGuardKey, toBase64 } from './wireguard-key.ts';

const randomKey = (bytes = 32) => toBase64(crypto.getRandomValues(new Uint8Array(bytes)));

describe('isWireGuardKey', () => {
  it('takes 32 random bytes in base64, as wg genkey and wg pubkey print them', () => {
    for (let i = 0; i < 200; i += 1) expect(isWireGuardKey(randomKey())).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['31 bytes', randomKey(31)],
    ['33 bytes', randomKey(33)],
    ['base64url', `${'ab-_'.repeat(10)}abcA=`],
    ['no padding', randomKey().slice(0, 43)],
    ['stray bits in the last character', `${'A'.repeat(42)}B=`],
    ['spaces', ` ${randomKey()}`],
    ['the zero key', `${'A'.repeat(43)}=`],
  ])('refuses %s', (_name, value) => {
    expect(isWireGuardKey(value)).toBe(false);
  });
});

describe('base64', () => {
  it('round-trips bytes', () => {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    expect(fromBase64(toBase64(bytes))).toEqual(bytes);
    expect(toBase64(new Uint8Array([255, 254, 253]))).toBe('//79');
  });
});
