import { and, eq, ne } from 'drizzle-orm';
import {
  type CustomerCreateRequest,
  type CustomerDetail,
  type CustomerUpdateRequest,
  CUSTOMER_MESSAGES as M,
} from '#shared/contracts/admin/customers.ts';
import { AUTH_MESSAGES } from '#shared/contracts/auth.ts';
import { FIELD_IS_INVALID } from '#shared/validation/zod-messages.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { countries, type UserRow, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { MailMessage } from '../../platform/mail/mailer.ts';
import { CREDENTIAL_LIMITS } from '../../platform/rate-limit/limits.ts';
import type { ProfileService } from '../account/profile-service.ts';
import type { AuthService } from '../identity/auth-service.ts';
import { retireMailedTokens, revokeToken } from '../identity/one-time-tokens.ts';
import { hashPassword } from '../identity/password.ts';
import { findUser } from '../identity/user-rows.ts';
import { uniqueUsername } from '../identity/usernames.ts';
import {
  type Acting,
  auditCustomer,
  type CustomersDeps,
  changeCustomer,
  confirmAdmin,
  notYourself,
  presentWithDevices,
  recordCustomerAction,
} from './customer-change.ts';

const normalise = (email: string) => email.trim().toLowerCase();

/**
 * §5/§6 the admin's customer profile work: create, view, name, e-mail and country, traffic
 * limit, and the links mailed on the customer's behalf (identity's and account's own mails).
 */
export class CustomersService {
  constructor(
    private readonly deps: CustomersDeps,
    private readonly mails: { auth: AuthService; profile: ProfileService },
  ) {}

  async view(id: number): Promise<CustomerDetail> {
    return presentWithDevices(this.deps, await findUser(this.deps.db, id));
  }

  private async emailFree(email: string, exceptId?: number): Promise<void> {
    const [other] = await this.deps.db
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

  private async countryExists(id: number): Promise<void> {
    const [found] = await this.deps.db
      .select({ id: countries.id })
      .from(countries)
      .where(eq(countries.id, id))
      .limit(1);
    if (!found) throw AppError.field('country_id', FIELD_IS_INVALID);
  }

  /**
   * §5 admin user-create: unverified until its owner follows the activation link. An admin
   * or author account gives staff powers: it takes the acting admin's password too.
   */
  async create(acting: Acting, input: CustomerCreateRequest): Promise<CustomerDetail> {
    const email = normalise(input.email);
    await this.emailFree(email);
    if (input.role !== 'USER') {
      await confirmAdmin(this.deps, acting, input.current_password, 'current_password');
    }
    const passwordHash = await hashPassword(input.password);
    let created: { user: UserRow; mail: MailMessage };
    try {
      created = await this.deps.db.transaction(async (tx) => {
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
        await auditCustomer(tx, acting, 'customers.created', user, { role: input.role });
        return { user, mail };
      });
    } catch (error) {
      // Two creations of one address at the same moment: the unique index decides.
      if (isUniqueViolation(error)) throw AppError.field('email', AUTH_MESSAGES.emailTaken);
      throw error;
    }
    await this.deps.mailer.send(created.mail);
    return presentWithDevices(this.deps, created.user);
  }

  /**
   * Name, e-mail and country. A new address is the account's at once but must be verified
   * again; it is a new way into the account, so it takes the admin's password, and every
   * link mailed to the old address (a reset, say) or to a pending one dies with it.
   */
  async update(acting: Acting, input: CustomerUpdateRequest): Promise<CustomerDetail> {
    const target = await findUser(this.deps.db, input.user_id);
    notYourself(acting, target);
    const email = normalise(input.email);
    const emailChanges = email !== target.email;
    if (emailChanges) {
      await this.emailFree(email, target.id);
      await confirmAdmin(this.deps, acting, input.password);
    }
    if (input.country_id !== null) await this.countryExists(input.country_id);
    const values: Partial<typeof users.$inferInsert> = {
      name: input.name?.trim() || null,
      countryId: input.country_id,
      ...(emailChanges ? { email, emailTmp: null, emailVerifiedAt: null } : {}),
    };
    let mail: MailMessage | undefined;
    let saved: CustomerDetail;
    try {
      saved = await changeCustomer(this.deps, acting, target, 'customers.updated', values, {
        data: {
          name: values.name,
          country_id: input.country_id,
          ...(emailChanges ? { from: target.email, to: email } : {}),
        },
        extra: async (tx) => {
          if (!emailChanges) return undefined;
          await retireMailedTokens(tx, target.id, target.email);
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

  async updateTrafficLimit(acting: Acting, id: number, limit: number | null) {
    const target = await findUser(this.deps.db, id);
    return changeCustomer(
      this.deps,
      acting,
      target,
      'customers.traffic_limit_updated',
      { trafficLimitGb: limit },
      { data: { from: target.trafficLimitGb, to: limit } },
    );
  }

  /** Mails go to the customer: limited per account, as the customer's own resends are. */
  private limitMails(name: string, target: UserRow): Promise<void> {
    return this.deps.rateLimiter.consume([
      { name, key: String(target.id), ...CREDENTIAL_LIMITS.verifyPerAccount },
    ]);
  }

  async resendActivationLink(acting: Acting, id: number): Promise<void> {
    const target = await findUser(this.deps.db, id);
    if (target.emailVerifiedAt) throw new AppError('conflict', { info: M.alreadyVerified });
    await this.limitMails('staff-activation-account', target);
    const mail = await recordCustomerAction(
      this.deps,
      acting,
      target,
      'customers.activation_link_sent',
      (tx) => this.mails.auth.verificationMail(tx, target),
    );
    await this.deps.mailer.send(mail);
  }

  async cancelEmailChange(acting: Acting, id: number): Promise<CustomerDetail> {
    const target = await findUser(this.deps.db, id);
    if (!target.emailTmp) throw new AppError('conflict', { info: M.noEmailChange });
    return changeCustomer(
      this.deps,
      acting,
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

  async resendEmailChange(acting: Acting, id: number): Promise<void> {
    const target = await findUser(this.deps.db, id);
    if (!target.emailTmp) throw new AppError('conflict', { info: M.noEmailChange });
    await this.limitMails('staff-email-change-account', target);
    const mail = await recordCustomerAction(
      this.deps,
      acting,
      target,
      'customers.email_change_resent',
      (tx) => this.mails.profile.emailChangeMail(tx, target),
      { to: target.emailTmp },
    );
    await this.deps.mailer.send(mail);
  }
}
