import type { CustomerDetail, CustomerSummary } from '#shared/contracts/admin/customers.ts';
import type { UserRow } from '../../db/schema/index.ts';

/** A row of the customers list; secrets (hashes, 2FA secret) never leave here. */
export function presentCustomerSummary(user: UserRow): CustomerSummary {
  return {
    id: user.id,
    name: user.name,
    username: user.username,
    email: user.email,
    role: user.role,
    activated: user.emailVerifiedAt !== null,
    blocked: user.blockedAt !== null,
    delete_at: user.deleteAt?.toISOString() ?? null,
    created_at: user.createdAt.toISOString(),
  };
}

/** The customer page's account, with how many devices are signed in. */
export function presentCustomer(user: UserRow, devicesCount: number): CustomerDetail {
  return {
    ...presentCustomerSummary(user),
    email_tmp: user.emailTmp,
    photo: user.photo,
    country_id: user.countryId,
    locale: user.locale,
    blocked_at: user.blockedAt?.toISOString() ?? null,
    traffic_limit: user.trafficLimitGb,
    two_factor_authentication: user.twoFactorSecret !== null,
    two_factor_authentication_confirmed: user.twoFactorConfirmedAt !== null,
    has_password: user.passwordHash !== null,
    devices_count: devicesCount,
  };
}
