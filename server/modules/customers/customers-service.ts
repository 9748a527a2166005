import { and, count, desc, eq, gt, ne } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AuditAction } from '#shared/audit-actions.ts';
import {
  type CustomerCreateRequest,
  type CustomerDetail,
  type CustomerUpdateRequest,
  CUSTOMER_MESSAGES as M,
} from '#shared/contracts/admin/customers.ts';
import { AUTH_MESSAGES } from '#shared/contracts/auth.ts';
import { listPage, type PagingQuery, pageWindow } from '#shared/contracts/list.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { sessions, type UserRow, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { notFoundError } from '../../http/error-handler.ts';
import type { Mailer, MailMessage } from '../../platform/mail/mailer.ts';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { DELETION_GRACE_MS, type ProfileService } from '../account/profile-service.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { presentSession } from '../devices/devices-service.ts';
import type { AuthService } from '../identity/auth-service.ts';
import { revokeToken } from '../identity/one-time-tokens.ts';
import { hashPassword } from '../identity/password.ts';
import { notifyPasswordChanged } from '../identity/password-changed-notice.ts';
import { checkPassword } from '../identity/password-check.ts';
import { type ActiveSession, deleteOtherSessions } from '../identity/sessions.ts';
import { deleteRecoveryCodes } from '../identity/two-factor/recovery-codes.ts';
import { publishDevicesDeleted, publishUserUpdated } from '../identity/user-events.ts';
import { findUser, updateUser } from '../identity/user-rows.ts';
import { uniqueUsername } from '../identity/usernames.ts';
import { presentCustomer } from './customer-presenter.ts';

/** What the customers service needs; the mails it sends are identity's and account's own. */
export interface CustomersDeps {
  db: Database;
  config: Pick<Config, 'defaultLocale' | 'sessionIdleMs'>;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  realtime: Realtime;
}

type Request = FastifyRequest;
const normalise = (email: string) => email.trim().toLowerCase();

/**
 * §6 what an admin may do to an account. Each change commits with its audit row (the admin
 * the actor, the account the subject); the customer's open pages hear of it afterwards
 * (§4 live events), and a block or a new password signs every device out at once.
 */
export class CustomersService {
  constructor(
    private readonly deps: CustomersDeps,
    private readonly mails: { auth: AuthService; profile: ProfileService },
  ) {}

  private get db() {
    return this.deps.db;
  }

  private find(id: number): Promise<UserRow> {
    return findUser(this.db, id);
  }

  /** The account with its live device count, as the customer page shows it. */
  async view(id: number): Promise<CustomerDetail> {
    return this.present(await this.find(id));
  }

  private async present(user: UserRow): Promise<CustomerDetail> {
    const since = new Date(Date.now() - this.deps.config.sessionIdleMs);
    const [devices] = await this.db
      .select({ n: count() })
      .from(sessions)
      .where(and(eq(sessions.userId, user.id), gt(sessions.lastSeenAt, since)));
    return presentCustomer(user, devices?.n ?? 0);
  }

  /**
   * Applies `values` to the account and records `action` in one transaction, then tells the
   * customer's pages; `extra` runs in the same transaction (ending sessions, say).
   */
  private async change(
    request: Request,
    actor: ActiveSession,
    target: UserRow,
    action: AuditAction,
    values: Partial<typeof users.$inferInsert>,
    options: {
      data?: Record<string, unknown>;
      extra?: (tx: Database) => Promise<string[] | undefined>;
    } = {},
  ): Promise<CustomerDetail> {
    const { updated, ended } = await this.db.transaction(async (tx) => {
      const row = await updateUser(tx, target.id, values);
      const endedSessions = (await options.extra?.(tx)) ?? [];
      await this.audit(tx, request, actor, action, target, options.data);
      return { updated: row, ended: endedSessions };
    });
    if (ended.length > 0) void publishDevicesDeleted(this.deps, target.id, ended);
    void publishUserUpdated(this.deps, updated);
    return this.present(updated);
  }

  private audit(
    db: Database,
    request: Request,
    actor: ActiveSession,
    action: AuditAction,
    target: Pick<UserRow, 'id'>,
    data?: Record<string, unknown>,
  ) {
    return recordAudit(db, request, {
      action,
      actorId: actor.user.id,
      subjectType: 'user',
      subjectId: target.id,
      data,
    });
  }

  /** The acting admin's own password, where §7 names one; a wrong one changes nothing. */
  private confirmAdmin(request: Request, actor: ActiveSession, password: string, field?: string) {
    return checkPassword(this.deps, request, actor.user, password, field);
  }

  private notYourself(actor: ActiveSession, target: UserRow): void {
    if (actor.user.id === target.id) throw new AppError('conflict', { info: M.notYourself });
  }

  private async emailFree(email: string, exceptId?: number): Promise<void> {
    const [other] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(
        exceptId === undefined
          ? eq(users.email, email)
          : and(eq(users.email, email), ne(users.id, exceptId)),
      )
      .limit(1);
    if (other) throw AppError.field('email', AUTH_MESSAGES.emailTaken);
  }

  /** §5 admin user-create: unverified until its owner follows the activation link. */
  async create(request: Request, actor: ActiveSession, input: CustomerCreateRequest) {
    const email = normalise(input.email);
    await this.emailFree(email);
    const passwordHash = await hashPassword(input.password);
    let created: { user: UserRow; mail: MailMessage };
    try {
      created = await this.db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({
            email,
            name: input.name.trim(),
            username: await uniqueUsername(tx, email),
            passwordHash,
            role: input.role,
            locale: this.deps.config.defaultLocale,
          })
          .returning();
        if (!user) throw new Error('user insert returned nothing');
        const mail = await this.mails.auth.verificationMail(tx, user);
        await this.audit(tx, request, actor, 'customers.created', user, { role: input.role });
        return { user, mail };
      });
    } catch (error) {
      // Two creations of one address at the same moment: the unique index decides.
      if (isUniqueViolation(error)) throw AppError.field('email', AUTH_MESSAGES.emailTaken);
      throw error;
    }
    await this.deps.mailer.send(created.mail);
    return this.present(created.user);
  }

  /**
   * Name, e-mail and country. A new address is the account's at once but must be verified
   * again: its owner gets the link there, and a pending change to another address is dropped.
   */
  async update(request: Request, actor: ActiveSession, input: CustomerUpdateRequest) {
    const target = await this.find(input.user_id);
    const email = normalise(input.email);
    const emailChanges = email !== target.email;
    if (emailChanges) await this.emailFree(email, target.id);
    const values: Partial<typeof users.$inferInsert> = {
      name: input.name?.trim() || null,
      countryId: input.country_id,
      ...(emailChanges ? { email, emailTmp: null, emailVerifiedAt: null } : {}),
    };
    let mail: MailMessage | undefined;
    let saved: CustomerDetail;
    try {
      saved = await this.change(request, actor, target, 'customers.updated', values, {
        data: {
          name: values.name,
          country_id: input.country_id,
          ...(emailChanges ? { from: target.email, to: email } : {}),
        },
        extra: async (tx) => {
          if (!emailChanges) return undefined;
          await revokeToken(tx, 'email_change', target.id);
          mail = await this.mails.auth.verificationMail(tx, { ...target, email });
          return undefined;
        },
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.field('email', AUTH_MESSAGES.emailTaken);
      throw error;
    }
    if (mail) await this.deps.mailer.send(mail);
    return saved;
  }

  async updateTrafficLimit(
    request: Request,
    actor: ActiveSession,
    id: number,
    limit: number | null,
  ) {
    const target = await this.find(id);
    return this.change(
      request,
      actor,
      target,
      'customers.traffic_limit_updated',
      { trafficLimitGb: limit },
      {
        data: { from: target.trafficLimitGb, to: limit },
      },
    );
  }

  /** Blocking ends every session in the same transaction: the customer is out at once. */
  async block(
    request: Request,
    actor: ActiveSession,
    id: number,
    blocked: boolean,
    password: string,
  ) {
    const target = await this.find(id);
    await this.confirmAdmin(request, actor, password);
    this.notYourself(actor, target);
    if (blocked === (target.blockedAt !== null)) return this.present(target);
    return this.change(
      request,
      actor,
      target,
      blocked ? 'customers.blocked' : 'customers.unblocked',
      { blockedAt: blocked ? new Date() : null },
      {
        extra: (tx) =>
          blocked ? deleteOtherSessions(tx, target.id, undefined) : Promise.resolve(undefined),
      },
    );
  }

  /** §4 deactivation on the customer's behalf: deleted after the grace period. */
  async deactivate(request: Request, actor: ActiveSession, id: number, password: string) {
    const target = await this.find(id);
    await this.confirmAdmin(request, actor, password);
    this.notYourself(actor, target);
    if (target.deleteAt) throw new AppError('conflict', { info: M.alreadyDeactivated });
    const deleteAt = new Date(Date.now() + DELETION_GRACE_MS);
    return this.change(
      request,
      actor,
      target,
      'customers.deactivated',
      { deleteAt },
      {
        data: { delete_at: deleteAt.toISOString() },
      },
    );
  }

  async reactivate(request: Request, actor: ActiveSession, id: number, password: string) {
    const target = await this.find(id);
    await this.confirmAdmin(request, actor, password);
    if (!target.deleteAt) throw new AppError('conflict', { info: M.notDeactivated });
    return this.change(request, actor, target, 'customers.reactivated', { deleteAt: null });
  }

  /** A new password: every session ends, and the owner is told by mail. */
  async updatePassword(
    request: Request,
    actor: ActiveSession,
    input: { user_id: number; password: string; current_password: string },
  ) {
    const target = await this.find(input.user_id);
    await this.confirmAdmin(request, actor, input.current_password, 'current_password');
    const passwordHash = await hashPassword(input.password);
    const saved = await this.change(
      request,
      actor,
      target,
      'customers.password_updated',
      { passwordHash },
      {
        extra: (tx) =>
          deleteOtherSessions(
            tx,
            target.id,
            actor.user.id === target.id ? actor.session.id : undefined,
          ),
      },
    );
    await notifyPasswordChanged(this.deps, target);
    return saved;
  }

  async disableTwoFactor(request: Request, actor: ActiveSession, id: number, password: string) {
    const target = await this.find(id);
    await this.confirmAdmin(request, actor, password);
    if (!target.twoFactorSecret) throw new AppError('conflict', { info: M.twoFactorNotEnabled });
    return this.change(
      request,
      actor,
      target,
      'customers.two_factor_disabled',
      { twoFactorSecret: null, twoFactorConfirmedAt: null, twoFactorLastStep: null },
      {
        extra: async (tx) => {
          await deleteRecoveryCodes(tx, target.id);
          return undefined;
        },
      },
    );
  }

  async resendActivationLink(request: Request, actor: ActiveSession, id: number) {
    const target = await this.find(id);
    if (target.emailVerifiedAt) throw new AppError('conflict', { info: M.alreadyVerified });
    const mail = await this.db.transaction(async (tx) => {
      const message = await this.mails.auth.verificationMail(tx, target);
      await this.audit(tx, request, actor, 'customers.activation_link_sent', target);
      return message;
    });
    await this.deps.mailer.send(mail);
    void publishUserUpdated(this.deps, target);
  }

  async cancelEmailChange(request: Request, actor: ActiveSession, id: number) {
    const target = await this.find(id);
    if (!target.emailTmp) throw new AppError('conflict', { info: M.noEmailChange });
    return this.change(
      request,
      actor,
      target,
      'customers.email_change_cancelled',
      { emailTmp: null },
      {
        data: { to: target.emailTmp },
        extra: async (tx) => {
          await revokeToken(tx, 'email_change', target.id);
          return undefined;
        },
      },
    );
  }

  async resendEmailChange(request: Request, actor: ActiveSession, id: number) {
    const target = await this.find(id);
    const mail = await this.db.transaction(async (tx) => {
      const message = await this.mails.profile.emailChangeMail(tx, target);
      await this.audit(tx, request, actor, 'customers.email_change_resent', target, {
        to: target.emailTmp,
      });
      return message;
    });
    await this.deps.mailer.send(mail);
    void publishUserUpdated(this.deps, target);
  }

  /** The customer's live sessions, the newest sign-in first. */
  async devices(id: number, paging: PagingQuery) {
    const target = await this.find(id);
    const since = new Date(Date.now() - this.deps.config.sessionIdleMs);
    const live = and(eq(sessions.userId, target.id), gt(sessions.lastSeenAt, since));
    const { offset, limit } = pageWindow(paging);
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(sessions)
        .where(live)
        .orderBy(desc(sessions.createdAt), desc(sessions.id))
        .offset(offset)
        .limit(limit),
      this.db.select({ n: count() }).from(sessions).where(live),
    ]);
    return listPage(rows.map(presentSession), paging, total?.n ?? 0);
  }

  /** Signs one device of the customer out; a device of someone else is not found. */
  async logoutDevice(request: Request, actor: ActiveSession, id: number, deviceId: string) {
    const target = await this.find(id);
    await this.db.transaction(async (tx) => {
      const removed = await tx
        .delete(sessions)
        .where(and(eq(sessions.id, deviceId), eq(sessions.userId, target.id)))
        .returning({ id: sessions.id });
      if (removed.length === 0) throw notFoundError();
      await this.audit(tx, request, actor, 'customers.device_logged_out', target, {
        device_id: deviceId,
      });
    });
    void publishDevicesDeleted(this.deps, target.id, [deviceId]);
    void publishUserUpdated(this.deps, target);
  }
}
