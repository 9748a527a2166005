import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes in base64url: 43 characters, the shape shared/challenge.ts accepts. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Tokens are stored as their SHA-256. They carry 256 bits of randomness, so a fast hash is
 * enough (no salt or slow hash needed, unlike passwords) and lookups stay indexed.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
