import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { ACCOUNT_MESSAGES } from '#shared/contracts/account.ts';
import type { Database } from '../../../db/client.ts';
import { type UserRow, users } from '../../../db/schema/index.ts';
import { AppError } from '../../../http/app-error.ts';
import type { SecretBox } from '../../../platform/crypto/secret-box.ts';
import { CREDENTIAL_LIMITS } from '../../../platform/rate-limit/limits.ts';
import { failsWith, type RateLimiter } from '../../../platform/rate-limit/rate-limiter.ts';
import type { Realtime } from '../../../platform/realtime/realtime.ts';
import { type AuditAction, recordOwnAction } from '../../audit/audit-log.ts';
import { checkPassword } from '../password-check.ts';
import { type ActiveSession, rotateSession } from '../sessions.ts';
import { publishUserUpdated } from '../user-events.ts';
import { updateUser } from '../user-rows.ts';
import { deleteRecoveryCodes, redeemRecoveryCode, replaceRecoveryCodes } from './recovery-codes.ts';
import { newTotpSecret, totpQr, totpStep } from './totp.ts';

const M = ACCOUNT_MESSAGES;

/** What two-factor authentication needs: the seed's sealing box, the limits, the events. */
export interface TwoFactorDeps {
  db: Database;
  rateLimiter: RateLimiter;
  realtime: Realtime;
  totpBox: SecretBox;
}

/**
 * §4 Two-factor: off → enabled but unconfirmed (a secret exists) → confirmed (a code was
 * accepted). The secret is sealed at rest; a code is accepted once (its time step is kept);
 * recovery codes are hashed and single use. Wrong codes are limited per account.
 */
export class TwoFactorService {
  constructor(private readonly deps: TwoFactorDeps) {}

  private get db() {
    return this.deps.db;
  }

  /** `db` is the transaction of the change recorded. */
  private audit(db: Database, request: FastifyRequest, action: AuditAction, user: UserRow) {
    return recordOwnAction(db, request, action, user);
  }

  private secretOf(user: UserRow): string {
    if (!user.twoFactorSecret) throw new AppError('conflict', { info: M.twoFactorNotEnabled });
    return this.deps.totpBox.open(user.twoFactorSecret);
  }

  /** §4 live events, after the commit. */
  private published(user: UserRow): UserRow {
    void publishUserUpdated(this.deps, user);
    return user;
  }

  /** Starts (or restarts) the setup with a new secret; a confirmed setup must be disabled first. */
  async enable(request: FastifyRequest, user: UserRow): Promise<UserRow> {
    if (user.twoFactorConfirmedAt) {
      throw new AppError('conflict', { info: M.twoFactorAlreadyConfirmed });
    }
    const twoFactorSecret = this.deps.totpBox.seal(newTotpSecret());
    const updated = await this.db.transaction(async (tx) => {
      const row = await updateUser(tx, user.id, {
        twoFactorSecret,
        twoFactorConfirmedAt: null,
        twoFactorLastStep: null,
      });
      await deleteRecoveryCodes(tx, user.id);
      await this.audit(tx, request, 'two_factor.setup_started', user);
      return row;
    });
    return this.published(updated);
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
    const result = await this.db.transaction(async (tx) => {
      const confirmed = await updateUser(tx, user.id, { twoFactorConfirmedAt: new Date() });
      const recoveryCodes = await replaceRecoveryCodes(tx, user.id);
      const sessionToken = await rotateSession(tx, session.id);
      await this.audit(tx, request, 'two_factor.enabled', user);
      return { user: confirmed, recoveryCodes, sessionToken };
    });
    this.published(result.user);
    return result;
  }

  async disable(request: FastifyRequest, user: UserRow, password: string): Promise<UserRow> {
    await checkPassword(this.deps, request, user, password);
    if (!user.twoFactorSecret) throw new AppError('conflict', { info: M.twoFactorNotEnabled });
    const updated = await this.db.transaction(async (tx) => {
      const row = await updateUser(tx, user.id, {
        twoFactorSecret: null,
        twoFactorConfirmedAt: null,
        twoFactorLastStep: null,
      });
      await deleteRecoveryCodes(tx, user.id);
      await this.audit(tx, request, 'two_factor.disabled', user);
      return row;
    });
    return this.published(updated);
  }

  /** A new set of recovery codes (the old set stops working), after the password. */
  async newRecoveryCodes(request: FastifyRequest, user: UserRow, password: string) {
    await checkPassword(this.deps, request, user, password);
    if (!user.twoFactorConfirmedAt) {
      throw new AppError('conflict', { info: M.twoFactorNotEnabled });
    }
    return this.db.transaction(async (tx) => {
      const codes = await replaceRecoveryCodes(tx, user.id);
      await this.audit(tx, request, 'two_factor.recovery_codes_downloaded', user);
      return codes;
    });
  }

  /**
   * The second step of signing in (§4 code 102): a TOTP code or an unused recovery code.
   * Throws the field error of `code` when neither matches.
   */
  async verifySignIn(request: FastifyRequest, user: UserRow, code: string): Promise<void> {
    await this.limited(request, user, async () => {
      const trimmed = code.trim();
      if (/^[0-9]{6}$/.test(trimmed)) return this.acceptTotp(user, trimmed);
      const redeemed = await this.db.transaction(async (tx) => {
        if (!(await redeemRecoveryCode(tx, user.id, trimmed))) return false;
        await this.audit(tx, request, 'two_factor.recovery_code_used', user);
        return true;
      });
      if (!redeemed) throw AppError.field('code', M.codeIncorrect);
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
    await this.deps.rateLimiter.limitFailures(
      [rule],
      async () => {
        try {
          await check();
        } catch (error) {
          if (isWrongCode(error)) {
            // A refusal changes nothing: its row is written on its own.
            await this.audit(this.db, request, 'auth.two_factor_failed', user);
          }
          throw error;
        }
      },
      isWrongCode,
    );
    await this.deps.rateLimiter.reset(rule.name, rule.key);
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
