import { randomBytes } from 'node:crypto';
import { NODE_TOKEN_PREFIX } from '#shared/contracts/vpn-node.ts';
import { hashToken } from '../identity/secrets.ts';

/**
 * A node's bearer token: 256 random bits behind a prefix that says what it is (so a leaked
 * one is recognised by secret scanners and in logs). Stored as its SHA-256, like every token.
 */
export function newNodeToken(): { token: string; hash: string } {
  const token = `${NODE_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashToken(token) };
}

export { hashToken as hashNodeToken };
