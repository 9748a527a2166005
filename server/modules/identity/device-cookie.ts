import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';

// OWASP's device cookies ("Slow Down Online Guessing Attacks with Device Cookies"): a
// browser that has signed in to an account gets a signed cookie naming that account and a
// random nonce. A sign-in that shows one for the account it names is counted against that
// cookie's own failures, not the account's shared counter, so a stranger who locks the
// account out with wrong passwords does not lock out its owner's browsers. Nothing is
// stored: the cookie is its own proof (an HMAC under a key derived from the app key).

const VERSION = 'v1';
const NONCE_BYTES = 16;
/** About a year: Chromium keeps no cookie beyond 400 days. */
export const DEVICE_COOKIE_MAX_MS = 365 * 86_400_000;

/** What device-cookie code needs of the app: the cookie's name and its signing key. */
export interface DeviceCookieDeps {
  config: Pick<Config, 'appUrl'>;
  /** HKDF-derived from the app key for this purpose alone (crypto-plugin.ts). */
  deviceCookieKey: Buffer;
}

/** A device cookie that checked out: the account it names and its own counter's key. */
export interface TrustedDevice {
  userId: number;
  nonce: string;
}

/** Over HTTPS `__Host-`: Secure, path /, no domain, like the session cookie. */
export function deviceCookieName(config: Pick<Config, 'appUrl'>): string {
  return config.appUrl.startsWith('https:') ? '__Host-device' : 'device';
}

function sign(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload).digest();
}

/** `v1.<user id>.<issued at, epoch seconds>.<nonce>.<HMAC of the rest>`, in base64url. */
export function deviceCookieValue(key: Buffer, userId: number, issuedAt = Date.now()): string {
  const nonce = randomBytes(NONCE_BYTES).toString('base64url');
  const payload = `${VERSION}.${userId}.${Math.floor(issuedAt / 1000)}.${nonce}`;
  return `${payload}.${sign(key, payload).toString('base64url')}`;
}

/** The device a value stands for, or undefined when it was altered, forged or is too old. */
export function readDeviceCookie(
  key: Buffer,
  value: string | undefined,
  now = Date.now(),
): TrustedDevice | undefined {
  const parts = value?.split('.');
  if (parts?.length !== 5) return undefined;
  const [version, userText = '', issuedText = '', nonce = '', mac = ''] = parts;
  if (version !== VERSION || !/^[1-9]\d{0,15}$/.test(userText) || !/^\d{1,12}$/.test(issuedText)) {
    return undefined;
  }
  const expected = sign(key, parts.slice(0, 4).join('.'));
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  // The browser's max-age is the browser's to honour; this bound is ours.
  const age = now - Number(issuedText) * 1000;
  if (age < 0 || age > DEVICE_COOKIE_MAX_MS) return undefined;
  return { userId: Number(userText), nonce };
}

/**
 * The device cookie this request shows for `userId`; undefined without one, or with one
 * for another account (a shared browser's), or one that does not check out.
 */
export function trustedDevice(
  deps: DeviceCookieDeps,
  request: FastifyRequest,
  userId: number,
): TrustedDevice | undefined {
  const device = readDeviceCookie(
    deps.deviceCookieKey,
    request.cookies[deviceCookieName(deps.config)],
  );
  return device?.userId === userId ? device : undefined;
}

/**
 * Gives the browser a new device cookie for the account it has just signed in to (a new
 * nonce, so a new counter, on every sign-in). Signing out keeps it: it is what lets this
 * browser back in while the account is locked against strangers.
 */
export function setDeviceCookie(reply: FastifyReply, deps: DeviceCookieDeps, userId: number): void {
  reply.setCookie(deviceCookieName(deps.config), deviceCookieValue(deps.deviceCookieKey, userId), {
    httpOnly: true,
    secure: deps.config.appUrl.startsWith('https:'),
    sameSite: 'lax',
    path: '/',
    maxAge: Math.floor(DEVICE_COOKIE_MAX_MS / 1000),
  });
}
