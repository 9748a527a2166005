import { randomBytes } from 'node:crypto';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { decodeChallenge } from '#shared/challenge.ts';
import {
  ACCOUNT_MESSAGES,
  type ProfileUpdateRequest,
  type UpdatePasswordRequest,
} from '#shared/contracts/account.ts';
import { AUTH_MESSAGES } from '#shared/contracts/auth.ts';
import type { Lang } from '#shared/locales.ts';
import { isStaff } from '#shared/roles.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { oneTimeTokens, type TokenType, type UserRow, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';
import { CREDENTIAL_LIMITS } from '../../platform/rate-limit/limits.ts';
import type { RateLimitRule } from '../../platform/rate-limit/rate-limiter.ts';
import { mediaKey, mediaPath } from '../../platform/storage/storage-plugin.ts';
import { type AuditAction, recordOwnAction } from '../audit/audit-log.ts';
import { AuthService } from '../identity/auth-service.ts';
import { challengeLink, userLocale } from '../identity/mail-links.ts';
import { consumeToken, findToken, issueToken, revokeToken } from '../identity/one-time-tokens.ts';
import { hashPassword } from '../identity/password.ts';
import { checkPassword } from '../identity/password-check.ts';
import { deleteOtherSessions, rotateSession } from '../identity/sessions.ts';
import { publishDevicesDeleted, publishUserUpdated } from '../identity/user-events.ts';
import { toAvatar } from './avatar-image.ts';

const M = ACCOUNT_MESSAGES;

/**
 * How long a deactivated account waits before it is deleted (§4 "Account deletion marks the
 * user deactivated through a delete date"): time to change one's mind, as the spec's
 * reactivation screen assumes.
 */
export const DELETION_GRACE_MS = 30 * 86_400_000;

const normalise = (email: string) => email.trim().toLowerCase();

/**
 * The links that are mailed to an address. When the account's address changes, those sent
 * to the old one die: whoever still reads that mailbox must not reset the password.
 */
const MAILED_TOKENS: TokenType[] = [
  'email_verify',
  'password_reset',
  'password_set',
  'email_change',
];

/** Why following an e-mail change link failed, as the audit log records it. */
type EmailChangeFailure = 'malformed' | 'not_pending' | 'invalid_token' | 'foreign' | 'taken';

/**
 * The signed-in user's own account (§4, §5, §7 Account): profile and avatar, e-mail change,
 * password change, deactivation and reactivation. Each change is audited.
 */
export class ProfileService {
  constructor(private readonly app: App) {}

  private get db() {
    return this.app.db;
  }

  private audit(
    request: FastifyRequest,
    action: AuditAction,
    user: UserRow,
    data?: Record<string, unknown>,
  ) {
    return recordOwnAction(this.db, request, action, user, data);
  }

  /** Writes the change and tells the user's open pages (§4 live events). */
  private async save(userId: number, values: Partial<typeof users.$inferInsert>): Promise<UserRow> {
    const [user] = await this.db.update(users).set(values).where(eq(users.id, userId)).returning();
    if (!user) throw new AppError('not_found');
    void publishUserUpdated(this.app, user);
    return user;
  }

  /** Each new address sends a mail: limited per account and per client address. */
  private limitEmailChanges(request: FastifyRequest, user: UserRow): Promise<void> {
    const rules: RateLimitRule[] = [
      {
        name: 'email-change-account',
        key: String(user.id),
        ...CREDENTIAL_LIMITS.emailChangePerAccount,
      },
      { name: 'email-change-ip', key: request.ip, ...CREDENTIAL_LIMITS.emailChangePerIp },
    ];
    return this.app.rateLimiter.consume(rules);
  }

  private async emailTakenByOther(email: string, userId: number): Promise<boolean> {
    const [other] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, email), ne(users.id, userId)))
      .limit(1);
    return other !== undefined;
  }

  private async usernameTakenByOther(username: string, userId: number): Promise<boolean> {
    const [other] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.username}) = ${username.toLowerCase()}`, ne(users.id, userId)))
      .limit(1);
    return other !== undefined;
  }

  /**
   * §5 Profile. Name and username change at once; a new e-mail address waits in email_tmp
   * until the link sent to it is followed (§4), so a typo cannot lock the owner out.
   */
  async updateProfile(
    request: FastifyRequest,
    user: UserRow,
    input: ProfileUpdateRequest,
  ): Promise<UserRow> {
    const email = normalise(input.email);
    const emailChanges = email !== user.email && email !== user.emailTmp;
    if (await this.usernameTakenByOther(input.username, user.id)) {
      throw AppError.field('username', M.usernameTaken);
    }
    // Counted before the address is looked up, so the answer "taken" cannot be farmed.
    if (emailChanges) await this.limitEmailChanges(request, user);
    if (emailChanges && (await this.emailTakenByOther(email, user.id))) {
      throw AppError.field('email', AUTH_MESSAGES.emailTaken);
    }
    let updated: UserRow;
    try {
      updated = await this.save(user.id, {
        name: input.name?.trim() || null,
        username: input.username,
        // Typing the current address back withdraws a pending change.
        ...(email === user.email ? { emailTmp: null } : {}),
        ...(input.locale ? { locale: input.locale } : {}),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.field('username', M.usernameTaken);
      throw error;
    }
    await this.audit(request, 'account.profile_updated', user);
    if (email === user.email && user.emailTmp) {
      await revokeToken(this.db, 'email_change', user.id);
      await this.audit(request, 'account.email_change_cancelled', user);
    }
    if (!emailChanges) return updated;
    updated = await this.save(user.id, { emailTmp: email });
    await this.sendEmailChange(updated, input.locale);
    await this.audit(request, 'account.email_change_requested', user, { to: email });
    return updated;
  }

  /** Mails the link that confirms email_tmp, to that new address. */
  private async sendEmailChange(user: UserRow, locale?: Lang): Promise<void> {
    if (!user.emailTmp) throw new AppError('conflict', { info: M.noEmailChange });
    const lang = locale ?? userLocale(this.app.config, user);
    const token = await issueToken(this.db, 'email_change', user.id, user.emailTmp);
    const path = isStaff(user.role)
      ? 'admin/account/email/change/verify'
      : 'account/email/change/verify';
    await this.app.mailer.send({
      template: 'email_change',
      to: user.emailTmp,
      locale: lang,
      data: {
        name: user.name ?? user.username,
        newEmail: user.emailTmp,
        link: challengeLink(this.app.config, lang, path, { email: user.emailTmp, token }),
      },
    });
  }

  async resendEmailChange(request: FastifyRequest, user: UserRow, locale?: Lang): Promise<void> {
    await this.limitEmailChanges(request, user);
    await this.sendEmailChange(user, locale);
    await this.audit(request, 'account.email_change_requested', user, {
      to: user.emailTmp,
      resent: true,
    });
  }

  async cancelEmailChange(request: FastifyRequest, user: UserRow): Promise<UserRow> {
    if (!user.emailTmp) throw new AppError('conflict', { info: M.noEmailChange });
    await revokeToken(this.db, 'email_change', user.id);
    const updated = await this.save(user.id, { emailTmp: null });
    await this.audit(request, 'account.email_change_cancelled', user);
    return updated;
  }

  /**
   * The link from the new mailbox: the address becomes the account's (and counts as
   * verified, since following the link proved it). The link works once, for this user, and
   * only while that address is still the pending one. Links mailed to the old address die.
   * Every refusal is audited: a run of them is someone trying links that are not theirs.
   */
  async confirmEmailChange(
    request: FastifyRequest,
    user: UserRow,
    rawChallenge: string,
  ): Promise<UserRow> {
    await this.app.rateLimiter.consume([
      { name: 'verify-ip', key: request.ip, ...CREDENTIAL_LIMITS.verifyPerIp },
    ]);
    const refuse = async (reason: EmailChangeFailure, error: AppError) => {
      await this.audit(request, 'account.email_change_failed', user, { reason });
      return error;
    };
    const invalid = () => new AppError('bad_request', { info: AUTH_MESSAGES.linkInvalid });
    const taken = () => new AppError('conflict', { info: AUTH_MESSAGES.emailTaken });
    const challenge = decodeChallenge(rawChallenge);
    if (!challenge?.email || !challenge.token) throw await refuse('malformed', invalid());
    const email = normalise(challenge.email);
    if (user.emailTmp !== email) {
      throw await refuse('not_pending', new AppError('conflict', { info: M.emailChangeFailed }));
    }
    // Looked at before it is used, so another account's attempt cannot spend the owner's link.
    const found = await findToken(this.db, 'email_change', email, challenge.token);
    if (!found) throw await refuse('invalid_token', invalid());
    if (found.userId !== user.id) throw await refuse('foreign', invalid());
    const used = await consumeToken(this.db, 'email_change', email, challenge.token);
    if (!used) throw await refuse('invalid_token', invalid());
    if (await this.emailTakenByOther(email, user.id)) throw await refuse('taken', taken());
    let updated: UserRow;
    try {
      updated = await this.db.transaction(async (tx) => {
        const [row] = await tx
          .update(users)
          .set({ email, emailTmp: null, emailVerifiedAt: user.emailVerifiedAt ?? new Date() })
          .where(eq(users.id, user.id))
          .returning();
        if (!row) throw new AppError('not_found');
        await tx
          .delete(oneTimeTokens)
          .where(
            and(
              eq(oneTimeTokens.userId, user.id),
              eq(oneTimeTokens.email, user.email),
              inArray(oneTimeTokens.type, MAILED_TOKENS),
            ),
          );
        return row;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw await refuse('taken', taken());
      throw error;
    }
    void publishUserUpdated(this.app, updated);
    await this.audit(request, 'account.email_changed', user, { from: user.email, to: email });
    return updated;
  }

  /**
   * §7 update-password. Every other session ends and this one gets a new token: whoever
   * knew the old password, or copied the old cookie, is out. Answers the new token.
   */
  async updatePassword(
    request: FastifyRequest,
    user: UserRow,
    sessionId: string,
    input: UpdatePasswordRequest,
  ): Promise<string> {
    await checkPassword(this.app, request, user, input.current_password, 'current_password');
    await this.save(user.id, { passwordHash: await hashPassword(input.password) });
    const ended = await deleteOtherSessions(this.db, user.id, sessionId);
    void publishDevicesDeleted(this.app, user.id, ended);
    const token = await rotateSession(this.db, sessionId);
    await this.audit(request, 'account.password_changed', user);
    await new AuthService(this.app).notifyPasswordChanged(user);
    return token;
  }

  /**
   * An account made through Google or Apple has no password to change: it gets a link to
   * set one (§2 password.set), sent to its verified address.
   */
  async sendPasswordSetLink(request: FastifyRequest, user: UserRow, locale?: Lang): Promise<void> {
    if (user.passwordHash) throw new AppError('conflict', { info: M.passwordAlreadySet });
    await this.app.rateLimiter.consume([
      { name: 'password-set-link', key: String(user.id), ...CREDENTIAL_LIMITS.verifyPerAccount },
    ]);
    const lang = locale ?? userLocale(this.app.config, user);
    const token = await issueToken(this.db, 'password_set', user.id, user.email);
    await this.app.mailer.send({
      template: 'password_set',
      to: user.email,
      locale: lang,
      data: {
        name: user.name ?? user.username,
        link: challengeLink(this.app.config, lang, 'password/set', { email: user.email, token }),
      },
    });
    await this.audit(request, 'account.password_set_link_sent', user);
  }

  /**
   * §5 the avatar: re-encoded here, stored under a new random name, the old file removed.
   * Limited per account before the upload is read, since decoding a large image is costly.
   */
  async updatePhoto(
    request: FastifyRequest,
    user: UserRow,
    readUpload: () => Promise<Buffer>,
  ): Promise<UserRow> {
    await this.app.rateLimiter.consume([
      { name: 'avatar-account', key: String(user.id), ...CREDENTIAL_LIMITS.avatarPerAccount },
    ]);
    const image = await toAvatar(await readUpload());
    const key = `avatars/${randomBytes(16).toString('base64url')}.webp`;
    await this.app.storage.put(key, { data: image, contentType: 'image/webp' });
    const updated = await this.save(user.id, { photo: mediaPath(key) });
    await this.removeFile(user.photo);
    await this.audit(request, 'account.photo_updated', user);
    return updated;
  }

  async removePhoto(request: FastifyRequest, user: UserRow): Promise<UserRow> {
    const updated = await this.save(user.id, { photo: null });
    await this.removeFile(user.photo);
    await this.audit(request, 'account.photo_removed', user);
    return updated;
  }

  private async removeFile(photo: string | null): Promise<void> {
    const key = mediaKey(photo);
    if (key) await this.app.storage.delete(key);
  }

  /** §4 account deletion: the password, then a delete date; the user keeps only reactivation. */
  async deactivate(request: FastifyRequest, user: UserRow, password: string): Promise<UserRow> {
    await checkPassword(this.app, request, user, password);
    if (user.deleteAt) return user;
    const updated = await this.save(user.id, {
      deleteAt: new Date(Date.now() + DELETION_GRACE_MS),
    });
    await this.audit(request, 'account.deactivated', user, {
      delete_at: updated.deleteAt?.toISOString(),
    });
    return updated;
  }

  /** §4 "reactivation cancels it". */
  async reactivate(request: FastifyRequest, user: UserRow): Promise<UserRow> {
    if (!user.deleteAt) throw new AppError('conflict', { info: M.accountNotDeactivated });
    const updated = await this.save(user.id, { deleteAt: null });
    await this.audit(request, 'account.reactivated', user);
    return updated;
  }
}
