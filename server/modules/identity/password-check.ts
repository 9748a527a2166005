import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { CREDENTIAL_LIMITS } from '../../platform/rate-limit/limits.ts';
import { failsWith, type RateLimiter } from '../../platform/rate-limit/rate-limiter.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { verifyPassword } from './password.ts';

/** What checking a password needs: the per-account limit, and the log of failures. */
export interface PasswordCheckDeps {
  db: Database;
  rateLimiter: RateLimiter;
}

/**
 * §5/§8 password-confirmed actions (delete account, disable 2FA, recovery codes, devices,
 * password change): a wrong password is a validation error on the `password` field (or
 * the field named), limited per account like sign-in failures, and audited. Called before
 * the action's transaction opens: a refusal changes nothing, so its audit row stands alone.
 */
export async function checkPassword(
  deps: PasswordCheckDeps,
  request: FastifyRequest,
  user: UserRow,
  password: string,
  field = 'password',
): Promise<void> {
  const rule = {
    name: 'password-check',
    key: String(user.id),
    ...CREDENTIAL_LIMITS.passwordCheckPerAccount,
  };
  // The slot is taken before argon2 runs, so parallel guesses cannot outrun the count.
  await deps.rateLimiter.limitFailures(
    [rule],
    async () => {
      if (user.passwordHash && (await verifyPassword(user.passwordHash, password))) return;
      await recordAudit(deps.db, request, {
        action: 'account.password_check_failed',
        actorId: user.id,
        subjectType: 'user',
        subjectId: user.id,
      });
      throw AppError.field(field, 'errors.password_incorrect');
    },
    failsWith('validation_failed'),
  );
}
