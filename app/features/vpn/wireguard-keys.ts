import { toBase64 } from '#shared/vpn/wireguard-key.ts';

// DESIGN "VPN provisioning": a device's key pair is made here, in the browser, and only its
// public key is ever sent. The private key goes into the `.conf` the page shows once and is
// kept nowhere else, so the server cannot leak what it never had.

/** Both keys as `wg` prints them: 32 bytes in standard base64. */
export interface WireGuardKeyPair {
  privateKey: string;
  publicKey: string;
}

const KEY_BYTES = 32;

/**
 * X25519 clamps the scalar before use, so these bits never matter; clearing them as `wg
 * genkey` does makes our keys look like every other WireGuard key (same public key).
 */
function clamp(secret: Uint8Array): Uint8Array {
  const key = secret.slice();
  key[0] = (key[0] ?? 0) & 248;
  key[31] = ((key[31] ?? 0) & 127) | 64;
  return key;
}

function fromBase64Url(text: string): Uint8Array {
  const padded = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(padded + '='.repeat((4 - (padded.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/**
 * A pair from WebCrypto's X25519; null where the browser lacks it (Safari before 17, older
 * Firefox), so the caller can fall back. The private key is exported as PKCS #8, whose last
 * 32 bytes are the raw key (RFC 8410), or as a JWK's `d` where PKCS #8 is refused.
 */
export async function webCryptoKeyPair(
  subtle: SubtleCrypto | undefined = globalThis.crypto?.subtle,
): Promise<WireGuardKeyPair | null> {
  if (!subtle) return null;
  let pair: CryptoKeyPair;
  try {
    pair = (await subtle.generateKey({ name: 'X25519' }, true, ['deriveBits'])) as CryptoKeyPair;
  } catch {
    return null;
  }
  const publicKey = new Uint8Array(await subtle.exportKey('raw', pair.publicKey));
  let secret: Uint8Array;
  try {
    const pkcs8 = new Uint8Array(await subtle.exportKey('pkcs8', pair.privateKey));
    secret = pkcs8.slice(-KEY_BYTES);
  } catch {
    const jwk = await subtle.exportKey('jwk', pair.privateKey);
    if (!jwk.d) throw new Error('X25519 private key without d');
    secret = fromBase64Url(jwk.d);
  }
  if (publicKey.length !== KEY_BYTES || secret.length !== KEY_BYTES) {
    throw new Error('X25519 key of an unexpected size');
  }
  return { privateKey: toBase64(clamp(secret)), publicKey: toBase64(publicKey) };
}

/**
 * A pair from @noble/curves, for browsers without X25519 in WebCrypto. Imported on demand,
 * so it is in no bundle but the one of the browsers that need it.
 */
export async function nobleKeyPair(): Promise<WireGuardKeyPair> {
  const { x25519 } = await import('@noble/curves/ed25519.js');
  const secret = clamp(x25519.utils.randomSecretKey());
  return { privateKey: toBase64(secret), publicKey: toBase64(x25519.getPublicKey(secret)) };
}

/** A new WireGuard key pair: WebCrypto where it has X25519, @noble/curves elsewhere. */
export async function generateKeyPair(
  subtle: SubtleCrypto | undefined = globalThis.crypto?.subtle,
): Promise<WireGuardKeyPair> {
  return (await webCryptoKeyPair(subtle)) ?? nobleKeyPair();
}
