import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A key of its own for one purpose, derived from the app key (HKDF-SHA256). */
export function deriveKey(appKey: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', appKey, 'shieldline', purpose, 32));
}

/**
 * Authenticated encryption (AES-256-GCM) for small secrets stored in the database, such as
 * TOTP seeds: a copy of the database alone does not give them away. Each purpose derives its
 * own key from the app key (HKDF), so a value cannot be moved from one column to another.
 * Stored as `v1.<iv>.<ciphertext+tag>` in base64url.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(appKey: string, purpose: string) {
    this.key = deriveKey(appKey, purpose);
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([
      cipher.update(plaintext, 'utf8'),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
  }

  /** The plaintext, or an error when the value was altered or sealed under another key. */
  open(sealed: string): string {
    const [version, iv, body] = sealed.split('.');
    if (version !== VERSION || !iv || !body) throw new Error('not a sealed value');
    const bytes = Buffer.from(body, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  }
}
