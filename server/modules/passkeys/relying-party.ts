import { createHash } from 'node:crypto';
import { PASSKEY_MESSAGES } from '#shared/contracts/passkeys.ts';
import { INT4_MAX } from '#shared/validation/record-id.ts';
import type { Config, WebAuthnConfig } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';

// What every ceremony states about us: who we are (the relying party), whose ceremonies
// count (the origins), and how an account is named to an authenticator.

/** The name an authenticator shows beside the account (as the TOTP issuer, totp.ts). */
export const RP_NAME = 'Shieldline VPN';

/** The relying party, or 404 where passkeys are off (APP_URL on plain http). */
export function relyingParty(config: Pick<Config, 'webauthn'>): WebAuthnConfig {
  if (!config.webauthn) {
    throw new AppError('not_found', { info: PASSKEY_MESSAGES.unavailable });
  }
  return config.webauthn;
}

/**
 * The WebAuthn user handle of an account: its id, hashed to a fixed 32 bytes. It holds
 * nothing personal (WebAuthn asks for no e-mail or name in it), and it is stable, so an
 * authenticator keeps one passkey per account and site, replacing rather than piling up.
 */
export function userHandle(userId: number): Uint8Array<ArrayBuffer> {
  const digest = createHash('sha256').update(`shieldline-passkey-user:${userId}`).digest();
  return new Uint8Array(digest);
}

/** The same, as the base64url an assertion's `userHandle` carries. */
export function userHandleText(userId: number): string {
  return Buffer.from(userHandle(userId)).toString('base64url');
}

/**
 * The counter column is a PostgreSQL integer, an authenticator's counter 32 bits unsigned:
 * past 2^31 − 1 (no known authenticator gets there) the stored value stays at the ceiling,
 * and comparisons are made with the value received.
 */
export function storedCounter(counter: number): number {
  return Math.min(counter, INT4_MAX);
}

/**
 * Why @simplewebauthn refused a response (it throws plain errors on malformed input: bad
 * CBOR, wrong type, origin, RP id, challenge, flags), cut short for the audit row.
 */
export function refusalDetail(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 200);
}
