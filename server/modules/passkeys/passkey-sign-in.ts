import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
} from '@simplewebauthn/server';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { AUTH_MESSAGES } from '#shared/contracts/auth.ts';
import {
  type AuthenticationCredential,
  PASSKEY_MESSAGES as M,
} from '#shared/contracts/passkeys.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { type PasskeyRow, passkeys, type UserRow, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { CREDENTIAL_LIMITS } from '../../platform/rate-limit/limits.ts';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { AuthService, SignedIn } from '../identity/auth-service.ts';
import { CEREMONY_TTL_MS, issueChallenge, takeChallenge } from './ceremony-challenges.ts';
import { refusalDetail, relyingParty, storedCounter, userHandleText } from './relying-party.ts';

/** What signing in with a passkey needs; the session itself is identity's (AuthService). */
export interface PasskeySignInDeps {
  db: Database;
  config: Pick<Config, 'webauthn'>;
  rateLimiter: RateLimiter;
}

/** Why a passkey sign-in was refused, as its audit row says. */
type Refusal = 'challenge' | 'unknown' | 'user_handle' | 'invalid' | 'counter' | 'blocked';

/** Another sign-in with the same key moved its counter while this one was being checked. */
class CounterMoved extends Error {}

/**
 * Sign-in with a passkey (§2 signin, beside the password). The browser is given a challenge
 * before anyone is known (the autofill offers whichever passkeys of this site the person
 * has); the answer names its credential, whose public key must verify the signature over our
 * challenge, our origin and our RP id, with the user verified. It then ends as a password and
 * two-factor sign-in does: one session, its audit row, the same answer.
 *
 * Every refusal is audited and answered with its own message; none is a 500. A signature
 * counter that does not go forward (when either side counts) means two copies of one key
 * exist: refused, and audited as such.
 */
export class PasskeySignIn {
  constructor(
    private readonly deps: PasskeySignInDeps,
    private readonly auth: AuthService,
  ) {}

  private get db() {
    return this.deps.db;
  }

  async options(request: FastifyRequest) {
    const rp = relyingParty(this.deps.config);
    await this.deps.rateLimiter.consume([
      { name: 'passkey-options-ip', key: request.ip, ...CREDENTIAL_LIMITS.passkeyOptionsPerIp },
    ]);
    const options = await generateAuthenticationOptions({
      rpID: rp.rpId,
      userVerification: 'required',
      timeout: CEREMONY_TTL_MS,
    });
    const challengeId = await issueChallenge(this.db, 'sign-in', null, options.challenge);
    return { options, challengeId };
  }

  async signIn(
    request: FastifyRequest,
    challengeId: string | undefined,
    credential: AuthenticationCredential,
  ): Promise<SignedIn> {
    const rp = relyingParty(this.deps.config);
    // The same budget as password sign-ins from this address.
    await this.deps.rateLimiter.consume([
      { name: 'sign-in-ip', key: request.ip, ...CREDENTIAL_LIMITS.signInPerIp },
    ]);
    const invalid = () => new AppError('unauthenticated', { info: M.invalid });
    const challenge = await takeChallenge(this.db, 'sign-in', challengeId);
    if (!challenge) {
      return this.refuse(
        request,
        undefined,
        'challenge',
        new AppError('bad_request', { info: M.expired }),
      );
    }
    const found = await this.keyOf(credential.id);
    if (!found) {
      return this.refuse(
        request,
        undefined,
        'unknown',
        new AppError('unauthenticated', { info: M.unknown }),
        {
          credential_id: credential.id.slice(0, 128),
        },
      );
    }
    const { key, user } = found;
    const keyData = { passkey_id: key.id };
    // The authenticator names the account it holds the key for: it must be the key's owner.
    const handle = credential.response.userHandle;
    if (handle && handle.replace(/=+$/, '') !== userHandleText(user.id)) {
      return this.refuse(request, user, 'user_handle', invalid(), keyData);
    }
    let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verified = await verifyAuthenticationResponse({
        // The library checks every field it reads; ours only bounded their sizes.
        response: credential as AuthenticationResponseJSON,
        expectedChallenge: challenge.challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.rpId,
        // Counter 0 turns the library's own counter check off: ours below runs only on a
        // signature that verified, so "copied key" is never said of a forgery.
        credential: {
          id: key.credentialId,
          publicKey: new Uint8Array(Buffer.from(key.publicKey, 'base64url')),
          counter: 0,
          transports: key.transports,
        },
        requireUserVerification: true,
      });
    } catch (error) {
      return this.refuse(request, user, 'invalid', invalid(), {
        ...keyData,
        detail: refusalDetail(error),
      });
    }
    if (!verified.verified) {
      return this.refuse(request, user, 'invalid', invalid(), { ...keyData, detail: 'signature' });
    }
    const { newCounter, credentialBackedUp } = verified.authenticationInfo;
    const counterRefusal = () =>
      this.refuse(request, user, 'counter', new AppError('unauthenticated', { info: M.counter }), {
        ...keyData,
        stored: key.counter,
        received: newCounter,
      });
    if ((newCounter > 0 || key.counter > 0) && newCounter <= key.counter) return counterRefusal();
    // Only someone holding the key learns that its account is blocked, as with a password.
    if (user.blockedAt) {
      return this.refuse(
        request,
        user,
        'blocked',
        new AppError('forbidden', { info: AUTH_MESSAGES.accountBlocked }),
        keyData,
      );
    }
    let outcome: Awaited<ReturnType<AuthService['finishSignIn']>>;
    try {
      outcome = await this.auth.finishSignIn(
        request,
        user,
        'passkey',
        async (tx) => {
          // Moved only from the value checked above: a second sign-in racing this one with
          // another copy of the key finds the counter changed and is refused.
          const used = await tx
            .update(passkeys)
            .set({
              counter: storedCounter(newCounter),
              lastUsedAt: sql`now()`,
              backedUp: credentialBackedUp,
            })
            .where(and(eq(passkeys.id, key.id), eq(passkeys.counter, key.counter)))
            .returning({ id: passkeys.id });
          if (used.length === 0) throw new CounterMoved();
        },
        keyData,
      );
    } catch (error) {
      if (error instanceof CounterMoved) return counterRefusal();
      throw error;
    }
    if (!('token' in outcome)) throw new Error('a passkey sign-in asked for a second factor');
    // The owner proved themselves: failed password guesses by someone else stop counting.
    await this.deps.rateLimiter.reset('sign-in-account', user.email);
    return outcome;
  }

  private async keyOf(
    credentialId: string,
  ): Promise<{ key: PasskeyRow; user: UserRow } | undefined> {
    const [row] = await this.db
      .select({ key: passkeys, user: users })
      .from(passkeys)
      .innerJoin(users, eq(users.id, passkeys.userId))
      .where(eq(passkeys.credentialId, credentialId.replace(/=+$/, '')))
      .limit(1);
    return row;
  }

  /** A refusal changes nothing: its audit row is written on its own, then the error thrown. */
  private async refuse(
    request: FastifyRequest,
    user: UserRow | undefined,
    reason: Refusal,
    error: AppError,
    data: Record<string, unknown> = {},
  ): Promise<never> {
    await recordAudit(this.db, request, {
      action: 'passkeys.refused',
      actorId: user?.id ?? null,
      subjectType: 'user',
      subjectId: user?.id,
      data: { ceremony: 'sign-in', reason, ...data },
    });
    throw error;
  }
}
