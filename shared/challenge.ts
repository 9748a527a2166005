import { isStorableText } from './validation/storable-text.ts';

// The challenge an e-mailed link carries (§2, §6): `?challenge=` followed by base64url JSON
// of the address it was sent to and a one-time token. The token is the secret; the server
// stores only its hash and decides whether it is valid. The browser decodes the challenge
// to route: a challenge for another address, or a broken one, never reaches a screen.
export interface Challenge {
  email?: string;
  token?: string;
  /** Set by links that must act on a signed-out browser (a reset for another session). */
  force_logout?: boolean;
}

export const CHALLENGE_PARAM = 'challenge';

/** Tokens are 32 random bytes in base64url (43 characters); anything else is not one. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(value: string): string {
  const binary = atob(value.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder('utf-8', { fatal: true }).decode(
    Uint8Array.from(binary, (char) => char.charCodeAt(0)),
  );
}

export function encodeChallenge(challenge: Challenge): string {
  return toBase64Url(JSON.stringify(challenge));
}

/** The decoded challenge, or `undefined` when the value is not one. */
export function decodeChallenge(value: string): Challenge | undefined {
  try {
    const parsed: unknown = JSON.parse(fromBase64Url(value));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const { email, token, force_logout } = parsed as Record<string, unknown>;
    // A value the database cannot hold is no address or token of ours: a broken link.
    if (email !== undefined && (typeof email !== 'string' || !isStorableText(email))) {
      return undefined;
    }
    if (token !== undefined && (typeof token !== 'string' || !isStorableText(token))) {
      return undefined;
    }
    if (force_logout !== undefined && typeof force_logout !== 'boolean') return undefined;
    return { email, token, force_logout };
  } catch {
    return undefined;
  }
}
