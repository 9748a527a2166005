import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
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
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { TokenType, UserRow } from '../../db/schema/index.ts';
import { users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { Mailer, MailMessage } from '../../platform/mail/mailer.ts';
import { CREDENTIAL_LIMITS } from '../../platform/rate-limit/limits.ts';
import { failsWith, type RateLimiter } from '../../platform/rate-limit/rate-limiter.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { type AuditAction, recordAudit } from '../audit/audit-log.ts';
import { type DeviceCookieDeps, trustedDevice } from './device-cookie.ts';
import { challengeLink, userLocale } from './mail-links.ts';
import { consumeToken, findToken, issueToken, refusalOf, TOKEN_TTL_MS } from './one-time-tokens.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { notifyPasswordChanged } from './password-changed-notice.ts';
import {
  type ActiveSession,
  createSession,
  deleteOtherSessions,
  deleteSession,
  rotateSession,
} from './sessions.ts';
import { needsSecondFactor, type TwoFactorService } from './two-factor/two-factor-service.ts';
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

/** What sign-up, sign-in and the password flows need (the second factor comes as a service). */
export interface AuthDeps extends DeviceCookieDeps {
  db: Database;
  config: Pick<Config, 'appUrl' | 'defaultLocale' | 'sessionMaxMs'>;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  realtime: Realtime;
  log: FastifyBaseLogger;
}

/**
 * More audit rows to write in the transaction of a sign-in (social sign-in's own), told
 * whether the sign-in waits for its second factor.
 */
export type SignInRecord = (tx: Database, secondFactor: boolean) => Promise<void>;

/**
 * Sign-up, sign-in, sign-out, e-mail verification and the password flows (§2, §4, §6). Each
 * change commits with its audit row; mail and live events follow the commit.
 */
export class AuthService {
  constructor(
    private readonly deps: AuthDeps,
    private readonly twoFactor: TwoFactorService,
  ) {}

  private get db() {
    return this.deps.db;
  }

  /** `db` is the transaction of the change recorded, or the database for a refusal. */
  private audit(
    db: Database,
    request: FastifyRequest,
    action: AuditAction,
    actorId: number | null,
    data?: Record<string, unknown>,
  ) {
    return recordAudit(db, request, {
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
    return challengeLink(this.deps.config, this.localeOf(user), path, challenge);
  }

  private localeOf(user: Pick<UserRow, 'locale'>): Lang {
    return userLocale(this.deps.config, user);
  }

  /** Replaces any session this browser had: a new sign-in always gets a new token. */
  private async startSession(
    db: Database,
    request: FastifyRequest,
    user: UserRow,
  ): Promise<SignedIn> {
    if (request.auth) await deleteSession(db, request.auth.session.id);
    const { token } = await createSession(db, this.deps.config, user, this.client(request));
    return { token, user };
  }

  /** Issues the verification link in `db`; answers its mail, to send once that commits. */
  async verificationMail(db: Database, user: UserRow): Promise<MailMessage> {
    const token = await issueToken(db, 'email_verify', user.id, user.email);
    return {
      template: 'email_verify',
      to: user.email,
      locale: this.localeOf(user),
      data: {
        name: user.name ?? user.username,
        link: this.link(user, 'email/verify', { email: user.email, token }),
      },
    };
  }

  async sendVerification(user: UserRow): Promise<void> {
    await this.deps.mailer.send(await this.verificationMail(this.db, user));
  }

  async signUp(request: FastifyRequest, input: SignUpRequest): Promise<SignedIn> {
    const email = normalise(input.email);
    await this.deps.rateLimiter.consume([
      { name: 'sign-up-ip', key: request.ip, ...CREDENTIAL_LIMITS.signUpPerIp },
      { name: 'sign-up-address', key: email, ...CREDENTIAL_LIMITS.signUpPerAddress },
    ]);
    if (await this.userByEmail(email)) throw AppError.field('email', AUTH_MESSAGES.emailTaken);
    const passwordHash = await hashPassword(input.password);
    const username = await uniqueUsername(this.db, email);
    let created: { user: UserRow; mail: MailMessage };
    try {
      created = await this.db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({
            email,
            name: input.name?.trim() || null,
            username,
            passwordHash,
            locale: input.locale ?? this.deps.config.defaultLocale,
          })
          .returning();
        if (!user) throw new Error('user insert returned nothing');
        await this.audit(tx, request, 'auth.signed_up', user.id);
        const mail = await this.verificationMail(tx, user);
        await this.audit(tx, request, 'auth.verification_sent', user.id);
        return { user, mail };
      });
    } catch (error) {
      // Two sign-ups for one address at the same moment: the unique index decides.
      if (isUniqueViolation(error)) throw AppError.field('email', AUTH_MESSAGES.emailTaken);
      throw error;
    }
    await this.deps.mailer.send(created.mail);
    return this.startSession(this.db, request, created.user);
  }

  async signIn(request: FastifyRequest, input: SignInRequest): Promise<SignInOutcome> {
    const email = normalise(input.email);
    await this.deps.rateLimiter.consume([
      { name: 'sign-in-ip', key: request.ip, ...CREDENTIAL_LIMITS.signInPerIp },
    ]);
    const found = await this.userByEmail(email);
    // A browser that signed in to this account before counts its failures on its own device
    // cookie; any other shares the account's counter, which strangers' guesses fill.
    const device = found && trustedDevice(this.deps, request, found.id);
    const failures = device
      ? { name: 'sign-in-device', key: device.nonce, ...CREDENTIAL_LIMITS.signInPerDevice }
      : { name: 'sign-in-account', key: email, ...CREDENTIAL_LIMITS.signInPerAccount };
    // Only failures count, so the owner is never locked out by signing in.
    const user = await this.deps.rateLimiter.limitFailures(
      [failures],
      async () => {
        const matches = await verifyPassword(
          found?.passwordHash ?? (await timingHash()),
          input.password,
        );
        if (found?.passwordHash && matches) return found;
        await this.audit(this.db, request, 'auth.sign_in_failed', found?.id ?? null, { email });
        throw new AppError('unauthenticated', { info: INVALID_CREDENTIALS });
      },
      failsWith('unauthenticated'),
    );
    if (user.blockedAt) {
      await this.audit(this.db, request, 'auth.sign_in_failed', user.id, { reason: 'blocked' });
      throw new AppError('forbidden', { info: AUTH_MESSAGES.accountBlocked });
    }
    // The device's success leaves the account's counter to the strangers who filled it.
    await this.deps.rateLimiter.reset(failures.name, failures.key);
    return this.finishSignIn(request, user, 'password');
  }

  /**
   * The last step of every sign-in (password, social, passkey): a session, or the second
   * factor first when two-factor authentication is on. `record` adds the caller's writes and
   * audit rows to the same transaction; `details` go into the sign-in's audit row.
   *
   * A passkey is both factors at once: the device holding the key, and the PIN or biometric
   * that unlocked it (user verification, which its sign-in requires), so no code follows it.
   */
  async finishSignIn(
    request: FastifyRequest,
    user: UserRow,
    method: 'password' | 'oauth' | 'passkey',
    record?: SignInRecord,
    details: Record<string, unknown> = {},
  ): Promise<SignInOutcome> {
    if (method !== 'passkey' && needsSecondFactor(user)) {
      const token = await this.db.transaction(async (tx) => {
        const issued = await issueToken(tx, 'two_factor_login', user.id, user.email);
        await record?.(tx, true);
        return issued;
      });
      return { twoFactorChallenge: encodeChallenge({ email: user.email, token }) };
    }
    return this.db.transaction(async (tx) => {
      const signedIn = await this.startSession(tx, request, user);
      await this.audit(tx, request, 'auth.signed_in', user.id, { method, ...details });
      await record?.(tx, false);
      return signedIn;
    });
  }

  /** §4 the second step: a TOTP or recovery code against the challenge of the first. */
  async signInTwoFactor(request: FastifyRequest, input: TwoFactorSignInRequest): Promise<SignedIn> {
    await this.deps.rateLimiter.consume([
      { name: 'sign-in-ip', key: request.ip, ...CREDENTIAL_LIMITS.signInPerIp },
    ]);
    const expired = () => new AppError('bad_request', { info: AUTH_MESSAGES.signInExpired });
    const challenge = decodeChallenge(input.challenge);
    if (!challenge?.email || !challenge.token) throw expired();
    const challengeToken = challenge.token;
    const pending = await findToken(this.db, 'two_factor_login', challenge.email, challengeToken);
    if (!pending) throw expired();
    const user = await this.userById(pending.userId);
    if (user.blockedAt) throw new AppError('forbidden', { info: AUTH_MESSAGES.accountBlocked });
    await this.twoFactor.verifySignIn(request, user, input.code);
    return this.db.transaction(async (tx) => {
      // Used up only now, so a mistyped code can be corrected; a second use finds nothing.
      if (!(await consumeToken(tx, 'two_factor_login', pending.email, challengeToken))) {
        throw expired();
      }
      const signedIn = await this.startSession(tx, request, user);
      await this.audit(tx, request, 'auth.signed_in', user.id, { two_factor: true });
      return signedIn;
    });
  }

  async signOut(request: FastifyRequest): Promise<void> {
    if (!request.auth) return;
    const { user, session } = request.auth;
    await this.db.transaction(async (tx) => {
      await deleteSession(tx, session.id);
      await this.audit(tx, request, 'auth.signed_out', user.id);
    });
    void publishDevicesDeleted(this.deps, user.id, [session.id]);
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
    await this.deps.rateLimiter.consume([
      { name: 'verify-ip', key: request.ip, ...CREDENTIAL_LIMITS.verifyPerIp },
      { name: 'verify-account', key: String(user.id), ...CREDENTIAL_LIMITS.verifyPerAccount },
    ]);
    if (user.emailVerifiedAt) return { user };
    const link = await this.challenge(request, 'email_verify', challenge);
    const used = await this.consume(request, 'email_verify', link, user.id);
    const verified = await this.db.transaction(async (tx) => {
      // The address must still be the one the link was sent to.
      const [row] = await tx
        .update(users)
        .set({ emailVerifiedAt: sql`now()` })
        .where(and(eq(users.id, user.id), eq(users.email, used.email)))
        .returning();
      if (!row) return undefined;
      const token = await rotateSession(tx, session.id);
      await this.audit(tx, request, 'auth.email_verified', user.id);
      return { user: row, token };
    });
    if (!verified) {
      return this.refuseLink(request, 'email_verify', 'address_changed', {
        email: used.email,
        ownerId: user.id,
      });
    }
    return verified;
  }

  async resendVerification(
    request: FastifyRequest,
    user: UserRow,
    locale: Lang | undefined,
  ): Promise<void> {
    await this.deps.rateLimiter.consume([
      { name: 'resend-ip', key: request.ip, ...CREDENTIAL_LIMITS.verifyPerIp },
      { name: 'resend-account', key: String(user.id), ...CREDENTIAL_LIMITS.verifyPerAccount },
    ]);
    if (user.emailVerifiedAt)
      throw new AppError('conflict', { info: AUTH_MESSAGES.alreadyVerified });
    const current = locale ? { ...user, locale } : user;
    const mail = await this.db.transaction(async (tx) => {
      const message = await this.verificationMail(tx, current);
      await this.audit(tx, request, 'auth.verification_sent', user.id);
      return message;
    });
    await this.deps.mailer.send(mail);
  }

  /**
   * Always answers alike, so the form does not tell which addresses have accounts. The
   * request is audited on its own, before the answer, for every address: the link is issued
   * after the answer, and only for an account, so joining the two would tell by the timing.
   */
  async forgotPassword(request: FastifyRequest, input: ForgotPasswordRequest): Promise<void> {
    const email = normalise(input.email);
    await this.deps.rateLimiter.consume([
      { name: 'forgot-ip', key: request.ip, ...CREDENTIAL_LIMITS.forgotPerIp },
      { name: 'forgot-account', key: email, ...CREDENTIAL_LIMITS.forgotPerAccount },
    ]);
    const user = await this.userByEmail(email);
    await this.audit(this.db, request, 'auth.password_reset_requested', user?.id ?? null, {
      email,
    });
    if (!user || user.blockedAt) return;
    // Sent after the answer: waiting for the mail server only when the address has an
    // account would tell, by the response time, which addresses do.
    void this.sendPasswordReset(user, input.locale).catch((error: unknown) => {
      this.deps.log.error({ err: error, userId: user.id }, 'password reset mail failed');
    });
  }

  private async sendPasswordReset(user: UserRow, locale: Lang | undefined): Promise<void> {
    const token = await issueToken(this.db, 'password_reset', user.id, user.email);
    const recipient = locale ? { ...user, locale } : user;
    await this.deps.mailer.send({
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
    await this.deps.rateLimiter.consume([
      { name: 'verify-ip', key: request.ip, ...CREDENTIAL_LIMITS.verifyPerIp },
    ]);
    // Per IP only: a per-address limit would let forged links hold the owner's real one back
    // (limits.ts). The token is the secret, and it cannot be guessed.
    const link = await this.challenge(request, 'password_reset', input.challenge);
    const used = await this.consume(request, 'password_reset', link);
    const passwordHash = await hashPassword(input.password);
    const ended = await this.db.transaction(async (tx) => {
      // Following the e-mailed link proves the address, so it counts as verified too.
      await tx
        .update(users)
        .set({ passwordHash, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
        .where(eq(users.id, used.userId));
      const sessionIds = await deleteOtherSessions(tx, used.userId, undefined);
      await this.audit(tx, request, 'auth.password_reset', used.userId);
      return sessionIds;
    });
    void publishDevicesDeleted(this.deps, used.userId, ended);
    // The owner proved the mailbox: failed guesses by someone else no longer lock them out.
    await this.deps.rateLimiter.reset('sign-in-account', used.email);
    await notifyPasswordChanged(this.deps, await this.userById(used.userId));
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
    await this.deps.rateLimiter.consume([
      { name: 'verify-ip', key: request.ip, ...CREDENTIAL_LIMITS.verifyPerIp },
      { name: 'password-set-account', key: String(user.id), ...CREDENTIAL_LIMITS.verifyPerAccount },
    ]);
    const link = await this.challenge(request, 'password_set', input.challenge);
    await this.consume(request, 'password_set', link, user.id);
    const passwordHash = await hashPassword(input.password);
    const done = await this.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(users)
        .set({ passwordHash })
        .where(eq(users.id, user.id))
        .returning();
      const ended = await deleteOtherSessions(tx, user.id, session.id);
      const token = await rotateSession(tx, session.id);
      await this.audit(tx, request, 'auth.password_set', user.id);
      return { updated, ended, token };
    });
    if (done.updated) void publishUserUpdated(this.deps, done.updated);
    void publishDevicesDeleted(this.deps, user.id, done.ended);
    await notifyPasswordChanged(this.deps, user);
    return done.token;
  }
}
