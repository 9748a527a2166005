import { x25519 } from '@noble/curves/ed25519.js';
import { describe, expect, it, vi } from 'vitest';
import { fromBase64, isWireGuardKey, toBase64 } from '#shared/vpn/wireguard-key.ts';
import { generateKeyPair, nobleKeyPair, webCryptoKeyPair } from './wireguard-keys.ts';

// Runs twice: in Node (the node project) and in Chromium (wireguard-keys-browser.test.tsx
// imports this file), so both WebCrypto implementations are held to the same pairs. Each
// pair made one way is checked the other way: its public key derived again from its private
// key by the implementation that did not make it.

/** RFC 8410's PKCS #8 wrapping of a raw X25519 private key. */
const PKCS8_PREFIX = [
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04, 0x20,
];

/** X25519(private, 9): the public key, computed by WebCrypto's deriveBits with the base point. */
async function webCryptoPublicKeyOf(privateKey: string): Promise<string> {
  const { subtle } = globalThis.crypto;
  const pkcs8 = new Uint8Array(48);
  pkcs8.set(PKCS8_PREFIX);
  pkcs8.set(fromBase64(privateKey), PKCS8_PREFIX.length);
  const secret = await subtle.importKey('pkcs8', pkcs8, { name: 'X25519' }, false, ['deriveBits']);
  const base = new Uint8Array(32);
  base[0] = 9;
  const basePoint = await subtle.importKey('raw', base, { name: 'X25519' }, true, []);
  const bits = await subtle.deriveBits({ name: 'X25519', public: basePoint }, secret, 256);
  return toBase64(new Uint8Array(bits));
}

const noblePublicKeyOf = (privateKey: string) =>
  toBase64(x25519.getPublicKey(fromBase64(privateKey)));

const hex = (text: string) =>
  Uint8Array.from(text.match(/../g) ?? [], (byte) => parseInt(byte, 16));

/** Bits X25519 ignores, cleared the way `wg genkey` clears them. */
function isClamped(privateKey: string): boolean {
  const bytes = fromBase64(privateKey);
  return ((bytes[0] ?? 1) & 7) === 0 && ((bytes[31] ?? 0) & 0xc0) === 0x40;
}

/** A WebCrypto whose X25519 is missing, as in browsers that predate it. */
function subtleWithoutX25519(): SubtleCrypto {
  const { subtle } = globalThis.crypto;
  return {
    ...subtle,
    generateKey: vi.fn(async () => {
      throw new DOMException('Algorithm: Unrecognized name', 'NotSupportedError');
    }),
  } as unknown as SubtleCrypto;
}

describe('WireGuard key pairs made in the browser', () => {
  it('agree with RFC 7748 in both implementations (the test derivations themselves)', async () => {
    const secret = toBase64(
      hex('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a'),
    );
    const expected = toBase64(
      hex('8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a'),
    );
    expect(noblePublicKeyOf(secret)).toBe(expected);
    expect(await webCryptoPublicKeyOf(secret)).toBe(expected);
  });

  it('makes a WebCrypto pair whose public key @noble/curves derives from its private key', async () => {
    for (let i = 0; i < 5; i += 1) {
      const pair = await webCryptoKeyPair();
      expect(pair).not.toBeNull();
      if (!pair) return;
      expect(isWireGuardKey(pair.publicKey), pair.publicKey).toBe(true);
      expect(isWireGuardKey(pair.privateKey)).toBe(true);
      expect(isClamped(pair.privateKey)).toBe(true);
      expect(noblePublicKeyOf(pair.privateKey)).toBe(pair.publicKey);
    }
  });

  it('makes a @noble/curves pair whose public key WebCrypto derives from its private key', async () => {
    for (let i = 0; i < 5; i += 1) {
      const pair = await nobleKeyPair();
      expect(isWireGuardKey(pair.publicKey)).toBe(true);
      expect(isWireGuardKey(pair.privateKey)).toBe(true);
      expect(isClamped(pair.privateKey)).toBe(true);
      expect(await webCryptoPublicKeyOf(pair.privateKey)).toBe(pair.publicKey);
    }
  });

  it('uses WebCrypto where it has X25519', async () => {
    const { subtle } = globalThis.crypto;
    const generateKey = vi.spyOn(subtle, 'generateKey');
    try {
      const pair = await generateKeyPair(subtle);
      expect(generateKey).toHaveBeenCalledWith({ name: 'X25519' }, true, ['deriveBits']);
      expect(noblePublicKeyOf(pair.privateKey)).toBe(pair.publicKey);
    } finally {
      generateKey.mockRestore();
    }
  });

  it('falls back to @noble/curves where WebCrypto lacks X25519, or is missing', async () => {
    const without = subtleWithoutX25519();
    expect(await webCryptoKeyPair(without)).toBeNull();
    const pair = await generateKeyPair(without);
    expect(without.generateKey).toHaveBeenCalled();
    expect(await webCryptoPublicKeyOf(pair.privateKey)).toBe(pair.publicKey);
    const none = await generateKeyPair(undefined);
    expect(await webCryptoPublicKeyOf(none.privateKey)).toBe(none.publicKey);
  });

  it('never makes the same key twice', async () => {
    const keys = new Set<string>();
    for (let i = 0; i < 10; i += 1) {
      const pair = await (i % 2 ? nobleKeyPair() : generateKeyPair());
      keys.add(pair.privateKey);
      keys.add(pair.publicKey);
    }
    expect(keys.size).toBe(20);
  });
});
