import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { CEREMONY_TTL_MS, type CeremonyPurpose } from './ceremony-challenges.ts';

// The browser's half of a ceremony's challenge: a random id in an httpOnly cookie, sent back
// with the verify call. One cookie per purpose, so adding a passkey in one tab and signing in
// in another do not answer each other's challenge.

const NAMES: Record<CeremonyPurpose, string> = {
  register: 'passkey_register',
  'sign-in': 'passkey_sign_in',
};

/** As the session cookie: `__Host-` pins it to this origin over HTTPS. */
function cookieName(config: Pick<Config, 'appUrl'>, purpose: CeremonyPurpose): string {
  const name = NAMES[purpose];
  return config.appUrl.startsWith('https:') ? `__Host-${name}` : name;
}

// Strict: only our own pages' calls carry it. A `__Host-` cookie must be Secure, path /, no
// domain, on set and clear alike.
function cookieOptions(config: Pick<Config, 'appUrl'>) {
  return {
    httpOnly: true,
    secure: config.appUrl.startsWith('https:'),
    sameSite: 'strict',
    path: '/',
  } as const;
}

export function setChallengeCookie(
  reply: FastifyReply,
  config: Pick<Config, 'appUrl'>,
  purpose: CeremonyPurpose,
  id: string,
): void {
  reply.setCookie(cookieName(config, purpose), id, {
    ...cookieOptions(config),
    maxAge: Math.floor(CEREMONY_TTL_MS / 1000),
  });
}

/** The id the cookie holds, and the cookie cleared: a challenge answers once either way. */
export function takeChallengeCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Pick<Config, 'appUrl'>,
  purpose: CeremonyPurpose,
): string | undefined {
  const name = cookieName(config, purpose);
  const id = request.cookies[name];
  if (id !== undefined) reply.clearCookie(name, cookieOptions(config));
  return id;
}
