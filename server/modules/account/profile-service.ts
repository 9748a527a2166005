import { randomBytes } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
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
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { type UserRow, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { Mailer, MailMessage } from '../../platform/mail/mailer.ts';
import { CREDENTIAL_LIMITS } from '../../platform/rate-limit/limits.ts';
import type { RateLimiter, RateLimitRule } from '../../platform/rate-limit/rate-limiter.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import type { FileStorage } from '../../platform/storage/file-storage.ts';
import { mediaKey, mediaPath } from '../../platform/storage/storage-plugin.ts';
import { type AuditAction, recordOwnAction } from '../audit/audit-log.ts';
import { challengeLink, userLocale } from '../identity/mail-links.ts';
import {
  consumeToken,
  findToken,
  issueToken,
  retireMailedTokens,
  revokeToken,
} from '../identity/one-time-tokens.ts';
import { hashPassword } from '../identity/password.ts';
import { notifyPasswordChanged } from '../identity/password-changed-notice.ts';
import { checkPassword } from '../identity/password-check.ts';
import { deleteOtherSessions, rotateSession } from '../identity/sessions.ts';
import { publishDevicesDeleted, publishUserUpdated } from '../identity/user-events.ts';
import { updateUser } from '../identity/user-rows.ts';
import { toAvatar } from './avatar-image.ts';

const M = ACCOUNT_MESSAGES;

/**
 * How long a deactivated account waits before it is deleted (§4 "Account deletion marks the
 * user deactivated through a delete date"): time to change one's mind, as the spec's
 * reactivation screen assumes.
 */
export const DELETION_GRACE_MS = 30 * 86_400_000;

const normalise = (email: string) => email.trim().toLowerCase();

/** Why following an e-mail change link failed, as the audit log records it. */
type EmailChangeFailure = 'malformed' | 'not_pending' | 'invalid_token' | 'foreign' | 'taken';

/** What the own-account service needs: mail for the links, storage for the avatar. */
export interface ProfileDeps {
  db: Database;
  config: Pick<Config, 'appUrl' | 'defaultLocale'>;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  realtime: Realtime;
  storage: FileStorage;
}

/**
 * The signed-in user's own account (§4, §5, §7 Account): profile and avatar, e-mail change,
 * password change, deactivation and reactivation. Each change commits with its audit row;
 * mail, live events and the removal of replaced files follow the commit.
 */
export class ProfileService {
  constructor(private readonly deps: ProfileDeps) {}

  private get db() {
    return this.deps.db;
  }

  /** `db` is the transaction of the change recorded, or the database for a refusal. */
  private audit(
    db: Database,
    request: FastifyRequest,
    action: AuditAction,
    user: UserRow,
    data?: Record<string, unknown>,
  ) {
    return recordOwnAction(db, request, action, user, data);
  }

  /** §4 live events, after the commit. */
  private published(user: UserRow): UserRow {
    void publishUserUpdated(this.deps, user);
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
    return this.deps.rateLimiter.consume(rules);
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
    let changed: { user: UserRow; mail?: MailMessage };
    try {
      changed = await this.db.transaction(async (tx) => {
        const updated = await updateUser(tx, user.id, {
          name: input.name?.trim() || null,
          username: input.username,
          // Typing the current address back withdraws a pending change.
          ...(email === user.email ? { emailTmp: null } : {}),
          ...(input.locale ? { locale: input.locale } : {}),
        });
        await this.audit(tx, request, 'account.profile_updated', user);
        if (email === user.email && user.emailTmp) {
          await revokeToken(tx, 'email_change', user.id);
          await this.audit(tx, request, 'account.email_change_cancelled', user);
        }
        if (!emailChanges) return { user: updated };
        const pending = await updateUser(tx, user.id, { emailTmp: email });
        const mail = await this.emailChangeMail(tx, pending, input.locale);
        await this.audit(tx, request, 'account.email_change_requested', user, { to: email });
        return { user: pending, mail };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.field('username', M.usernameTaken);
      throw error;
    }
    this.published(changed.user);
    if (changed.mail) await this.deps.mailer.send(changed.mail);
    return changed.user;
  }

  /**
   * Issues the link that confirms email_tmp in `db`; answers its mail, to that new address,
   * to send once that commits.
   */
  async emailChangeMail(db: Database, user: UserRow, locale?: Lang): Promise<MailMessage> {
    if (!user.emailTmp) throw new AppError('conflict', { info: M.noEmailChange });
    const lang = locale ?? userLocale(this.deps.config, user);
    const token = await issueToken(db, 'email_change', user.id, user.emailTmp);
    const path = isStaff(user.role)
      ? 'admin/account/email/change/verify'
      : 'account/email/change/verify';
    return {
      template: 'email_change',
      to: user.emailTmp,
      locale: lang,
      data: {
        name: user.name ?? user.username,
        newEmail: user.emailTmp,
        link: challengeLink(this.deps.config, lang, path, { email: user.emailTmp, token }),
      },
    };
  }

  async resendEmailChange(request: FastifyRequest, user: UserRow, locale?: Lang): Promise<void> {
    await this.limitEmailChanges(request, user);
    const mail = await this.db.transaction(async (tx) => {
      const message = await this.emailChangeMail(tx, user, locale);
      await this.audit(tx, request, 'account.email_change_requested', user, {
        to: user.emailTmp,
        resent: true,
      });
      return message;
    });
    await this.deps.mailer.send(mail);
  }

  async cancelEmailChange(request: FastifyRequest, user: UserRow): Promise<UserRow> {
    if (!user.emailTmp) throw new AppError('conflict', { info: M.noEmailChange });
    const updated = await this.db.transaction(async (tx) => {
      await revokeToken(tx, 'email_change', user.id);
      const row = await updateUser(tx, user.id, { emailTmp: null });
      await this.audit(tx, request, 'account.email_change_cancelled', user);
      return row;
    });
    return this.published(updated);
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
    await this.deps.rateLimiter.consume([
      { name: 'verify-ip', key: request.ip, ...CREDENTIAL_LIMITS.verifyPerIp },
    ]);
    // A refusal changes nothing: its row is written on its own, never in a transaction.
    const refuse = async (reason: EmailChangeFailure, error: AppError) => {
      await this.audit(this.db, request, 'account.email_change_failed', user, { reason });
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
        await retireMailedTokens(tx, user.id, user.email);
        await this.audit(tx, request, 'account.email_changed', user, {
          from: user.email,
          to: email,
        });
        return row;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw await refuse('taken', taken());
      throw error;
    }
    return this.published(updated);
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
    await checkPassword(this.deps, request, user, input.current_password, 'current_password');
    const passwordHash = await hashPassword(input.password);
    const done = await this.db.transaction(async (tx) => {
      const updated = await updateUser(tx, user.id, { passwordHash });
      const ended = await deleteOtherSessions(tx, user.id, sessionId);
      const token = await rotateSession(tx, sessionId);
      await this.audit(tx, request, 'account.password_changed', user);
      return { updated, ended, token };
    });
    this.published(done.updated);
    void publishDevicesDeleted(this.deps, user.id, done.ended);
    await notifyPasswordChanged(this.deps, user);
    return done.token;
  }

  /**
   * An account made through Google or Apple has no password to change: it gets a link to
   * set one (§2 password.set), sent to its verified address.
   */
  async sendPasswordSetLink(request: FastifyRequest, user: UserRow, locale?: Lang): Promise<void> {
    if (user.passwordHash) throw new AppError('conflict', { info: M.passwordAlreadySet });
    await this.deps.rateLimiter.consume([
      { name: 'password-set-link', key: String(user.id), ...CREDENTIAL_LIMITS.verifyPerAccount },
    ]);
    const lang = locale ?? userLocale(this.deps.config, user);
    const token = await this.db.transaction(async (tx) => {
      const issued = await issueToken(tx, 'password_set', user.id, user.email);
      await this.audit(tx, request, 'account.password_set_link_sent', user);
      return issued;
    });
    await this.deps.mailer.send({
      template: 'password_set',
      to: user.email,
      locale: lang,
      data: {
        name: user.name ?? user.username,
        link: challengeLink(this.deps.config, lang, 'password/set', { email: user.email, token }),
      },
    });
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
    await this.deps.rateLimiter.consume([
      { name: 'avatar-account', key: String(user.id), ...CREDENTIAL_LIMITS.avatarPerAccount },
    ]);
    const image = await toAvatar(await readUpload());
    const key = `avatars/${randomBytes(16).toString('base64url')}.webp`;
    const photo = mediaPath(key);
    await this.deps.storage.put(key, { data: image, contentType: 'image/webp' });
    let updated: UserRow;
    try {
      updated = await this.db.transaction(async (tx) => {
        const row = await updateUser(tx, user.id, { photo });
        await this.audit(tx, request, 'account.photo_updated', user);
        return row;
      });
    } catch (error) {
      // The account still shows its old photo: the new file would be served to nobody.
      await this.removeFile(photo).catch(() => {});
      throw error;
    }
    this.published(updated);
    await this.removeFile(user.photo);
    return updated;
  }

  async removePhoto(request: FastifyRequest, user: UserRow): Promise<UserRow> {
    const updated = await this.db.transaction(async (tx) => {
      const row = await updateUser(tx, user.id, { photo: null });
      await this.audit(tx, request, 'account.photo_removed', user);
      return row;
    });
    this.published(updated);
    await this.removeFile(user.photo);
    return updated;
  }

  private async removeFile(photo: string | null): Promise<void> {
    const key = mediaKey(photo);
    if (key) await this.deps.storage.delete(key);
  }

  /** §4 account deletion: the password, then a delete date; the user keeps only reactivation. */
  async deactivate(request: FastifyRequest, user: UserRow, password: string): Promise<UserRow> {
    await checkPassword(this.deps, request, user, password);
    if (user.deleteAt) return user;
    const updated = await this.db.transaction(async (tx) => {
      const row = await updateUser(tx, user.id, {
        deleteAt: new Date(Date.now() + DELETION_GRACE_MS),
      });
      await this.audit(tx, request, 'account.deactivated', user, {
        delete_at: row.deleteAt?.toISOString(),
      });
      return row;
    });
    return this.published(updated);
  }

  /** §4 "reactivation cancels it". */
  async reactivate(request: FastifyRequest, user: UserRow): Promise<UserRow> {
    if (!user.deleteAt) throw new AppError('conflict', { info: M.accountNotDeactivated });
    const updated = await this.db.transaction(async (tx) => {
      const row = await updateUser(tx, user.id, { deleteAt: null });
      await this.audit(tx, request, 'account.reactivated', user);
      return row;
    });
    return this.published(updated);
  }
}
