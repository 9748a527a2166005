import type { AuthUser } from '#shared/contracts/auth-user.ts';
import type { UserRow } from '../../db/schema/index.ts';

/** §3 User as the browser sees it; secrets (password hash, 2FA secret) never leave here. */
export function presentAuthUser(user: UserRow): AuthUser {
  return {
    id: user.id,
    name: user.name,
    username: user.username,
    email: user.email,
    email_tmp: user.emailTmp,
    photo: user.photo,
    activated: user.emailVerifiedAt !== null,
    delete_at: user.deleteAt?.toISOString() ?? null,
    default_source: user.defaultSource,
    two_factor_authentication: user.twoFactorSecret !== null,
    two_factor_authentication_confirmed: user.twoFactorConfirmedAt !== null,
    country_id: user.countryId,
    users_billing_address: user.billingAddress,
    subscription_id: user.subscriptionId,
    role: user.role,
    has_password: user.passwordHash !== null,
  };
}
