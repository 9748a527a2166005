import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { type Challenge, decodeChallenge, encodeChallenge } from '#shared/challenge.ts';
import {
  AUTH_MESSAGES,
  type ForgotPasswordRequest,
  type ResetPasswordRequest,
  type SetPasswordRequest,
  type SignInRequest,
  type SignUpRequest,
  type TwoFactorSignInRequest,
} from '#shared/contracts/auth.ts';
import type { Lang } from '#shared/locales.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { TokenType, UserRow } from '../../db/schema/index.ts';
import { users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';
import { CREDENTIAL_LIMITS } from '../../platform/rate-limit/limits.ts';
import { failsWith } from '../../platform/rate-limit/rate-limiter.ts';
import { type AuditAction, recordAudit } from '../audit/audit-log.ts';
import { challengeLink, userLocale } from './mail-links.ts';
import { consumeToken, findToken, issueToken, refusalOf, TOKEN_TTL_MS } from './one-time-tokens.ts';
import { hashPassword, verifyPassword } from './password.ts';
import {
  type ActiveSession,
  createSession,
  deleteOtherSessions,
  deleteSession,
  rotateSession,
} from './sessions.ts';
import { needsSecondFactor, TwoFactorService } from './two-factor/two-factor-service.ts';
import { publishDevicesDeleted, publishUserUpdated } from './user-events.ts';
import { uniqueUsername } from './usernames.ts';

const { invalidCredentials: INVALID_CREDENTIALS, linkInvalid: LINK_INVALID } = AUTH_MESSAGES;

// Compared against when the e-mail is unknown, so an unknown address costs the same argon2
// work as a wrong password and timing does not tell them apart.
let dummyHash: Promise<string> | undefined;
const timingHash = () => {
  dummyHash ??= hashPassword('not-a-real-password-0!');
  return dummyHash;
};

const normalise = (email: string) => email.trim().toLowerCase();

/** The signed-in result of sign-in and sign-up: the cookie's token and the user. */
export interface SignedIn {
  token: string;
  user: UserRow;
}

/**
 * A sign-in that waits for its second factor (§4 code 102): the challenge names the user
 * and a short-lived one-time token; no session exists until a code is accepted.
 */
export interface SecondFactorNeeded {
  twoFactorChallenge: string;
}

export type SignInOutcome = SignedIn | SecondFactorNeeded;

/** Sign-up, sign-in, sign-out, e-mail verification and the password flows (§2, §4, §6). */
export class AuthService {
  constructor(private readonly app: App) {}

  private get db() {
    return this.app.db;
  }

  private audit(
    request: FastifyRequest,
    action: AuditAction,
    actorId: number | null,
    data?: Record<string, unknown>,
  ) {
    return recordAudit(this.db, request, {
      action,
      actorId,
      subjectType: 'user',
      subjectId: actorId ?? undefined,
      data,
    });
  }

  private client(request: FastifyRequest) {
    return { ip: request.ip, userAgent: request.headers['user-agent'] };
  }

  private async userByEmail(email: string): Promise<UserRow | undefined> {
    const [user] = await this.db.select().from(users).where(eq(users.email, email)).limit(1);
    return user;
  }

  private async userById(id: number): Promise<UserRow> {
    const [user] = await this.db.select().from(users).where(eq(users.id, id)).limit(1);
    if (!user) throw new AppError('not_found');
    return user;
  }

  private link(user: Pick<UserRow, 'locale'>, path: string, challenge: Challenge): string {
    return challengeLink(this.app.config, this.localeOf(user), path, challenge);
  }

  private localeOf(user: Pick<UserRow, 'locale'>): Lang {
    return userLocale(this.app.config, user);
  }

  /** Replaces any session this browser had: a new sign-in always gets a new token. */
  private async startSession(request: FastifyRequest, user: UserRow): Promise<SignedIn> {
    if (request.auth) await deleteSession(this.db, request.auth.session.id);
    const { token } = await createSession(this.db, this.app.config, user, this.client(request));
    return { token, user };
  }

  async sendVerification(user: UserRow): Promise<void> {
    const token = await issueToken(this.db, 'email_verify', user.id, user.email);
    await this.app.mailer.send({
      template: 'email_verify',
      to: user.email,
      locale: this.localeOf(user),
      data: {
        name: user.name ?? user.username,
        link: this.link(user, 'email/verify', { email: user.email, token }),
      },
    });
  }

  async signUp(request: FastifyRequest, input: SignUpRequest): Promise<SignedIn> {
    const email = normalise(input.email);
    await this.app.rateLimiter.consume([
      { name: 'sign-up-ip', key: request.ip, ...CREDENTIAL_LIMITS.signUpPerIp },
      { name: 'sign-up-address', key: email, ...CREDENTIAL_LIMITS.signUpPerAddress },
    ]);
    if (await this.userByEmail(email)) throw AppError.field('email', AUTH_MESSAGES.emailTaken);
    const passwordHash = await hashPassword(input.password);
    let user: UserRow | undefined;
    try {
      [user] = await this.db
        .insert(users)
        .values({
          email,
          name: input.name?.trim() || null,
          username: await uniqueUsername(this.db, email),
          passwordHash,
          locale: input.locale ?? this.app.config.defaultLocale,
        })
        .returning();
    } catch (error) {
      // Two sign-ups for one address at the same moment: the unique index decides.
      if (isUniqueViolation(error)) throw AppError.field('email', AUTH_MESSAGES.emailTaken);
      throw error;
    }
    if (!user) throw new Error('user insert returned nothing');
    await this.audit(request, 'auth.signed_up', user.id);
    await this.sendVerification(user);
    await this.audit(request, 'auth.verification_sent', user.id);
    return this.startSession(request, user);
  }

  async signIn(request: FastifyRequest, input: SignInRequest): Promise<SignInOutcome> {
    const email = normalise(input.email);
    const perAccount = {
      name: 'sign-in-account',
      key: email,
      ...CREDENTIAL_LIMITS.signInPerAccount,
    };
    await this.app.rateLimiter.consume([
      { name: 'sign-in-ip', key: request.ip, ...CREDENTIAL_LIMITS.signInPerIp },
    ]);
    // Per account only failures count, so the owner is never locked out by signing in.
    const user = await this.app.rateLimiter.limitFailures(
      [perAccount],
      async () => {
        const found = await this.userByEmail(email);
        const matches = await verifyPassword(
          found?.passwordHash ?? (await timingHash()),
          input.password,
        );
        if (found?.passwordHash && matches) return found;
        await this.audit(request, 'auth.sign_in_failed', found?.id ?? null, { email });
        throw new AppError('unauthenticated', { info: INVALID_CREDENTIALS });
      },
      failsWith('unauthenticated'),
    );
    if (user.blockedAt) {
      await this.audit(request, 'auth.sign_in_failed', user.id, { reason: 'blocked' });
      throw new AppError('forbidden', { info: AUTH_MESSAGES.accountBlocked });
    }
    await this.app.rateLimiter.reset(perAccount.name, email);
    return this.finishSignIn(request, user, 'password');
  }

  /**
   * The last step of every sign-in (password, social): a session, or the second factor
   * first when two-factor authentication is on.
   */
  async finishSignIn(
    request: FastifyRequest,
    user: UserRow,
    method: 'password' | 'oauth',
  ): Promise<SignInOutcome> {
    if (needsSecondFactor(user)) {
      const token = await issueToken(this.db, 'two_factor_login', user.id, user.email);
      return { twoFactorChallenge: encodeChallenge({ email: user.email, token }) };
    }
    const signedIn = await this.startSession(request, user);
    await this.audit(request, 'auth.signed_in', user.id, { method });
    return signedIn;
  }

  /** §4 the second step: a TOTP or recovery code against the challenge of the first. */
  async signInTwoFactor(request: FastifyRequest, input: TwoFactorSignInRequest): Promise<SignedIn> {
    await this.app.rateLimiter.consume([
      { name: 'sign-in-ip', key: request.ip, ...CREDENTIAL_LIMITS.signInPerIp },
    ]);
    const expired = () => new AppError('bad_request', { info: AUTH_MESSAGES.signInExpired });
    const challenge = decodeChallenge(input.challenge);
    if (!challenge?.email || !challenge.token) throw expired();
    const pending = await findToken(this.db, 'two_factor_login', challenge.email, challenge.token);
    if (!pending) throw expired();
    const user = await this.userById(pending.userId);
    if (user.blockedAt) throw new AppError('forbidden', { info: AUTH_MESSAGES.accountBlocked });
    await new TwoFactorService(this.app).verifySignIn(request, user, input.code);
    // Used up only now, so a mistyped code can be corrected; a second use finds nothing.
    if (!(await consumeToken(this.db, 'two_factor_login', pending.email, challenge.token))) {
      throw expired();
    }
    const signedIn = await this.startSession(request, user);
    await this.audit(request, 'auth.signed_in', user.id, { two_factor: true });
    return signedIn;
  }

  async signOut(request: FastifyRequest): Promise<void> {
    if (!request.auth) return;
    await deleteSession(this.db, request.auth.session.id);
    await this.audit(request, 'auth.signed_out', request.auth.user.id);
    void publishDevicesDeleted(this.app, request.auth.user.id, [request.auth.session.id]);
  }

  /** The e-mail and token of a challenge, or the "invalid link" error (audited). */
  private async challenge(request: FastifyRequest, type: TokenType, raw: string) {
    const value = decodeChallenge(raw);
    if (!value?.email || !value.token) return this.refuseLink(request, type, 'malformed');
    return { email: normalise(value.email), token: value.token };
  }

  /**
   * Uses the link's token. With `ownerId`, a token of another user is refused before it is
   * used, so that a link opened in the wrong account still works in the right one.
   */
  private async consume(
    request: FastifyRequest,
    type: TokenType,
    link: { email: string; token: string },
    ownerId?: number,
  ) {
    const { email, token } = link;
    if (ownerId !== undefined) {
      const found = await findToken(this.db, type, email, token);
      if (found && found.userId !== ownerId) {
        return this.refuseLink(request, type, 'foreign', { email, ownerId: found.userId });
      }
    }
    const used = await consumeToken(this.db, type, email, token);
    if (used) return used;
    const { reason, userId } = await refusalOf(this.db, type, email, token);
    return this.refuseLink(request, type, reason, { email, ownerId: userId });
  }

  /**
   * Refuses an e-mailed link and records who tried it, from where, and why (never the
   * token): a run of these is someone trying links that are not theirs.
   */
  private async refuseLink(
    request: FastifyRequest,
    type: TokenType,
    reason: 'malformed' | 'unknown' | 'expired' | 'foreign' | 'address_changed',
    link: { email?: string; ownerId?: number | undefined } = {},
  ): Promise<never> {
    await recordAudit(this.db, request, {
      action: 'auth.link_refused',
      actorId: request.auth?.user.id ?? null,
      subjectType: 'user',
      subjectId: link.ownerId,
      data: { link: type, reason, ...(link.email ? { email: link.email.slice(0, 254) } : {}) },
    });
    const code = reason === 'foreign' ? 'forbidden' : 'bad_request';
    throw new AppError(code, { info: LINK_INVALID });
  }

  /**
   * Marks the address verified. The account's standing changed, so this browser's session
   * gets a new token (answered, for the cookie), the old one dying at once. The caller
   * announces the change (publishUserUpdated) once its answer has gone out: pages re-fetch
   * the user when they hear "verified", and must by then hold the renewed cookie.
   */
  async verifyEmail(
    request: FastifyRequest,
    { user, session }: ActiveSession,
    challenge: string,
  ): Promise<{ user: UserRow; token?: string }> {
    await this.app.rateLimiter.consume([
      { name: 'verify-ip', key: request.ip, ...CREDENTIAL_LIMITS.verifyPerIp },
      { name: 'verify-account', key: String(user.id), ...CREDENTIAL_LIMITS.verifyPerAccount },
    ]);
    if (user.emailVerifiedAt) return { user };
    const link = await this.challenge(request, 'email_verify', challenge);
    const used = await this.consume(request, 'email_verify', link, user.id);
    // The address must still be the one the link was sent to.
    const [verified] = await this.db
      .update(users)
      .set({ emailVerifiedAt: sql`now()` })
      .where(and(eq(users.id, user.id), eq(users.email, used.email)))
      .returning();
    if (!verified) {
      return this.refuseLink(request, 'email_verify', 'address_changed', {
        email: used.email,
        ownerId: user.id,
      });
    }
    const token = await rotateSession(this.db, session.id);
    await this.audit(request, 'auth.email_verified', user.id);
    return { user: verified, token };
  }

  async resendVerification(
    request: FastifyRequest,
    user: UserRow,
    locale: Lang | undefined,
  ): Promise<void> {
    await this.app.rateLimiter.consume([
      { name: 'resend-ip', key: request.ip, ...CREDENTIAL_LIMITS.verifyPerIp },
      { name: 'resend-account', key: String(user.id), ...CREDENTIAL_LIMITS.verifyPerAccount },
    ]);
    if (user.emailVerifiedAt)
      throw new AppError('conflict', { info: AUTH_MESSAGES.alreadyVerified });
    const current = locale ? { ...user, locale } : user;
    await this.sendVerification(current);
    await this.audit(request, 'auth.verification_sent', user.id);
  }

  /** Always answers alike, so the form does not tell which addresses have accounts. */
  async forgotPassword(request: FastifyRequest, input: ForgotPasswordRequest): Promise<void> {
    const email = normalise(input.email);
    await this.app.rateLimiter.consume([
      { name: 'forgot-ip', key: request.ip, ...CREDENTIAL_LIMITS.forgotPerIp },
      { name: 'forgot-account', key: email, ...CREDENTIAL_LIMITS.forgotPerAccount },
    ]);
    const user = await this.userByEmail(email);
    await this.audit(request, 'auth.password_reset_requested', user?.id ?? null, { email });
    if (!user || user.blockedAt) return;
    // Sent after the answer: waiting for the mail server only when the address has an
    // account would tell, by the response time, which addresses do.
    void this.sendPasswordReset(user, input.locale).catch((error: unknown) => {
      this.app.log.error({ err: error, userId: user.id }, 'password reset mail failed');
    });
  }

  private async sendPasswordReset(user: UserRow, locale: Lang | undefined): Promise<void> {
    const token = await issueToken(this.db, 'password_reset', user.id, user.email);
    const recipient = locale ? { ...user, locale } : user;
    await this.app.mailer.send({
      template: 'password_reset',
      to: user.email,
      locale: this.localeOf(recipient),
      data: {
        name: user.name ?? user.username,
        link: this.link(recipient, 'password/forgot/verify', { email: user.email, token }),
        expiresInMinutes: TOKEN_TTL_MS.password_reset / 60_000,
      },
    });
  }

  /** Sets the new password and ends every session: whoever knew the old one is out. */
  async resetPassword(request: FastifyRequest, input: ResetPasswordRequest): Promise<void> {
    await this.app.rateLimiter.consume([
      { name: 'verify-ip', key: request.ip, ...CREDENTIAL_LIMITS.verifyPerIp },
    ]);
    // Per IP only: a per-address limit would let forged links hold the owner's real one back
    // (limits.ts). The token is the secret, and it cannot be guessed.
    const link = await this.challenge(request, 'password_reset', input.challenge);
    const used = await this.consume(request, 'password_reset', link);
    const passwordHash = await hashPassword(input.password);
    // Following the e-mailed link proves the address, so it counts as verified too.
    await this.db
      .update(users)
      .set({ passwordHash, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
      .where(eq(users.id, used.userId));
    void publishDevicesDeleted(
      this.app,
      used.userId,
      await deleteOtherSessions(this.db, used.userId, undefined),
    );
    // The owner proved the mailbox: failed guesses by someone else no longer lock them out.
    await this.app.rateLimiter.reset('sign-in-account', used.email);
    await this.audit(request, 'auth.password_reset', used.userId);
    await this.notifyPasswordChanged(await this.userById(used.userId));
  }

  /**
   * §2 password.set: an account made without a password (by staff, by social sign-in).
   * Answers this browser's new session token: the session is rotated, the others end.
   */
  async setPassword(
    request: FastifyRequest,
    { user, session }: ActiveSession,
    input: SetPasswordRequest,
  ): Promise<string> {
    await this.app.rateLimiter.consume([
      { name: 'verify-ip', key: request.ip, ...CREDENTIAL_LIMITS.verifyPerIp },
      { name: 'password-set-account', key: String(user.id), ...CREDENTIAL_LIMITS.verifyPerAccount },
    ]);
    const link = await this.challenge(request, 'password_set', input.challenge);
    await this.consume(request, 'password_set', link, user.id);
    const [updated] = await this.db
      .update(users)
      .set({ passwordHash: await hashPassword(input.password) })
      .where(eq(users.id, user.id))
      .returning();
    if (updated) void publishUserUpdated(this.app, updated);
    void publishDevicesDeleted(
      this.app,
      user.id,
      await deleteOtherSessions(this.db, user.id, session.id),
    );
    const token = await rotateSession(this.db, session.id);
    await this.audit(request, 'auth.password_set', user.id);
    await this.notifyPasswordChanged(user);
    return token;
  }

  /** The security notice after any change of password. */
  async notifyPasswordChanged(user: UserRow): Promise<void> {
    await this.app.mailer.send({
      template: 'password_changed',
      to: user.email,
      locale: this.localeOf(user),
      data: { name: user.name ?? user.username },
    });
  }
}
