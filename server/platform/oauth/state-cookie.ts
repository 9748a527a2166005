import { createHash, timingSafeEqual } from 'node:crypto';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { API_BASES } from '#shared/api-bases.ts';
import { OAUTH_PROVIDERS } from '#shared/contracts/oauth.ts';
import { LANGS } from '#shared/locales.ts';
import type { Config } from '../../config.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { OAuthProviderSettings } from './providers.ts';

/** Only the social sign-in endpoints ever see the cookie. */
export const STATE_COOKIE_PATH = `${API_BASES.public}/oauth-client`;
/** Time for the person to sign in at the provider; the server checks it too. */
export const STATE_TTL_MS = 10 * 60_000;

const oauthState = z.object({
  provider: z.enum(OAUTH_PROVIDERS),
  state: z.string().min(1),
  codeVerifier: z.string().min(1),
  nonce: z.string().min(1),
  lang: z.enum(LANGS),
  /** Epoch ms; the cookie's max-age is the browser's to honour, this is ours. */
  createdAt: z.number(),
  /** The name Apple sends only in the first form post of a person, kept for sign-up. */
  name: z.string().max(255).optional(),
});

/** One sign-in in progress in this browser (the RFC 6749 state, PKCE verifier, nonce). */
export type OAuthState = z.infer<typeof oauthState>;

/** Compares two secrets in constant time, whatever their lengths. */
export function sameSecret(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * The state of a sign-in in progress, sealed (AES-GCM) into one httpOnly cookie so that
 * no server-side store is needed and the browser can neither read nor alter it.
 */
export class StateCookie {
  constructor(
    private readonly config: Pick<Config, 'appUrl'>,
    private readonly box: SecretBox,
  ) {}

  private get https(): boolean {
    return this.config.appUrl.startsWith('https:');
  }

  private get name(): string {
    return this.https ? '__Secure-oauth-state' : 'oauth-state';
  }

  /**
   * Lax is enough when the provider redirects back (a top-level GET). Apple's form_post is
   * a cross-site POST, which carries only a SameSite=None cookie, and browsers accept that
   * only with Secure: Apple sign-in needs APP_URL on https (Apple requires it anyway).
   */
  private options(mode: OAuthProviderSettings['responseMode']): CookieSerializeOptions {
    return {
      httpOnly: true,
      secure: this.https,
      sameSite: mode === 'form_post' && this.https ? 'none' : 'lax',
      path: STATE_COOKIE_PATH,
      maxAge: STATE_TTL_MS / 1000,
    };
  }

  write(reply: FastifyReply, state: OAuthState, mode: OAuthProviderSettings['responseMode']) {
    reply.setCookie(this.name, this.box.seal(JSON.stringify(state)), this.options(mode));
  }

  /** The browser matches the cookie by name and path; the same-origin answer may be Lax. */
  clear(reply: FastifyReply) {
    const { maxAge: _, ...options } = this.options('query');
    reply.clearCookie(this.name, options);
  }

  /** The state of this browser's sign-in, or undefined when absent, altered or too old. */
  read(request: FastifyRequest, now = Date.now()): OAuthState | undefined {
    const sealed = request.cookies[this.name];
    if (!sealed) return undefined;
    let state: OAuthState;
    try {
      state = oauthState.parse(JSON.parse(this.box.open(sealed)));
    } catch {
      return undefined;
    }
    const age = now - state.createdAt;
    return age >= 0 && age <= STATE_TTL_MS ? state : undefined;
  }
}
