import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { ACCOUNT_MESSAGES } from '#shared/contracts/account.ts';
import { type UserRow, users } from '../../../db/schema/index.ts';
import { AppError } from '../../../http/app-error.ts';
import type { App } from '../../../http/types.ts';
import { CREDENTIAL_LIMITS } from '../../../platform/rate-limit/limits.ts';
import { failsWith } from '../../../platform/rate-limit/rate-limiter.ts';
import { type AuditAction, recordOwnAction } from '../../audit/audit-log.ts';
import { checkPassword } from '../password-check.ts';
import { type ActiveSession, rotateSession } from '../sessions.ts';
import { publishUserUpdated } from '../user-events.ts';
import { deleteRecoveryCodes, redeemRecoveryCode, replaceRecoveryCodes } from './recovery-codes.ts';
import { newTotpSecret, totpQr, totpStep } from './totp.ts';

const M = ACCOUNT_MESSAGES;

/**
 * §4 Two-factor: off → enabled but unconfirmed (a secret exists) → confirmed (a code was
 * accepted). The secret is sealed at rest; a code is accepted once (its time step is kept);
 * recovery codes are hashed and single use. Wrong codes are limited per account.
 */
export class TwoFactorService {
  constructor(private readonly app: App) {}

  private get db() {
    return this.app.db;
  }

  private audit(request: FastifyRequest, action: AuditAction, user: UserRow) {
    return recordOwnAction(this.db, request, action, user);
  }

  private secretOf(user: UserRow): string {
    if (!user.twoFactorSecret) throw new AppError('conflict', { info: M.twoFactorNotEnabled });
    return this.app.totpBox.open(user.twoFactorSecret);
  }

  private async save(userId: number, values: Partial<typeof users.$inferInsert>): Promise<UserRow> {
    const [user] = await this.db.update(users).set(values).where(eq(users.id, userId)).returning();
    if (!user) throw new AppError('not_found');
    void publishUserUpdated(this.app, user);
    return user;
  }

  /** Starts (or restarts) the setup with a new secret; a confirmed setup must be disabled first. */
  async enable(request: FastifyRequest, user: UserRow): Promise<UserRow> {
    if (user.twoFactorConfirmedAt) {
      throw new AppError('conflict', { info: M.twoFactorAlreadyConfirmed });
    }
    const updated = await this.save(user.id, {
      twoFactorSecret: this.app.totpBox.seal(newTotpSecret()),
      twoFactorConfirmedAt: null,
      twoFactorLastStep: null,
    });
    await deleteRecoveryCodes(this.db, user.id);
    await this.audit(request, 'two_factor.setup_started', user);
    return updated;
  }

  /** The QR of a setup in progress; a confirmed secret is never shown again. */
  async qr(user: UserRow): Promise<{ code: string; svg: string }> {
    if (user.twoFactorConfirmedAt) {
      throw new AppError('conflict', { info: M.twoFactorAlreadyConfirmed });
    }
    return totpQr(this.secretOf(user), user.email);
  }

  /**
   * Accepts the first code of the setup: two-factor is on, and the first recovery codes. The
   * account's standing changed, so this browser's session gets a new token (`sessionToken`,
   * for the cookie) and a token copied before no longer works.
   */
  async confirm(
    request: FastifyRequest,
    { user, session }: ActiveSession,
    code: string,
  ): Promise<{ user: UserRow; recoveryCodes: string[]; sessionToken: string }> {
    if (user.twoFactorConfirmedAt) {
      throw new AppError('conflict', { info: M.twoFactorAlreadyConfirmed });
    }
    await this.limited(request, user, () => this.acceptTotp(user, code));
    const confirmed = await this.save(user.id, { twoFactorConfirmedAt: new Date() });
    const recoveryCodes = await replaceRecoveryCodes(this.db, user.id);
    const sessionToken = await rotateSession(this.db, session.id);
    await this.audit(request, 'two_factor.enabled', user);
    return { user: confirmed, recoveryCodes, sessionToken };
  }

  async disable(request: FastifyRequest, user: UserRow, password: string): Promise<UserRow> {
    await checkPassword(this.app, request, user, password);
    if (!user.twoFactorSecret) throw new AppError('conflict', { info: M.twoFactorNotEnabled });
    const updated = await this.save(user.id, {
      twoFactorSecret: null,
      twoFactorConfirmedAt: null,
      twoFactorLastStep: null,
    });
    await deleteRecoveryCodes(this.db, user.id);
    await this.audit(request, 'two_factor.disabled', user);
    return updated;
  }

  /** A new set of recovery codes (the old set stops working), after the password. */
  async newRecoveryCodes(request: FastifyRequest, user: UserRow, password: string) {
    await checkPassword(this.app, request, user, password);
    if (!user.twoFactorConfirmedAt) {
      throw new AppError('conflict', { info: M.twoFactorNotEnabled });
    }
    const codes = await replaceRecoveryCodes(this.db, user.id);
    await this.audit(request, 'two_factor.recovery_codes_downloaded', user);
    return codes;
  }

  /**
   * The second step of signing in (§4 code 102): a TOTP code or an unused recovery code.
   * Throws the field error of `code` when neither matches.
   */
  async verifySignIn(request: FastifyRequest, user: UserRow, code: string): Promise<void> {
    await this.limited(request, user, async () => {
      const trimmed = code.trim();
      if (/^[0-9]{6}$/.test(trimmed)) return this.acceptTotp(user, trimmed);
      if (await redeemRecoveryCode(this.db, user.id, trimmed)) {
        await this.audit(request, 'two_factor.recovery_code_used', user);
        return;
      }
      throw AppError.field('code', M.codeIncorrect);
    });
  }

  /**
   * Runs a code check under the per-account limit; only failures count against it, and the
   * slot is taken before the check, so parallel guesses cannot outrun the count.
   */
  private async limited(request: FastifyRequest, user: UserRow, check: () => Promise<void>) {
    const rule = {
      name: 'two-factor-account',
      key: String(user.id),
      ...CREDENTIAL_LIMITS.twoFactorPerAccount,
    };
    await this.app.rateLimiter.limitFailures(
      [rule],
      async () => {
        try {
          await check();
        } catch (error) {
          if (isWrongCode(error)) await this.audit(request, 'auth.two_factor_failed', user);
          throw error;
        }
      },
      isWrongCode,
    );
    await this.app.rateLimiter.reset(rule.name, rule.key);
  }

  /**
   * Accepts a TOTP code once: its time step must be later than the last one accepted,
   * checked and stored in one statement so two requests cannot both use a code.
   */
  private async acceptTotp(user: UserRow, code: string): Promise<void> {
    const step = totpStep(this.secretOf(user), code);
    if (step === undefined) throw AppError.field('code', M.codeIncorrect);
    const accepted = await this.db
      .update(users)
      .set({ twoFactorLastStep: step })
      .where(
        and(
          eq(users.id, user.id),
          or(isNull(users.twoFactorLastStep), lt(users.twoFactorLastStep, step)),
        ),
      )
      .returning({ id: users.id });
    if (accepted.length === 0) throw AppError.field('code', M.codeAlreadyUsed);
  }
}

const isWrongCode = failsWith('validation_failed');

/** True when signing in needs the second step: two-factor is on and confirmed. */
export function needsSecondFactor(user: UserRow): boolean {
  return user.twoFactorSecret !== null && user.twoFactorConfirmedAt !== null;
}
