import type { AuthUser } from '#shared/contracts/auth-user.ts';

/** A signed-in customer for app tests, §3 User with every field; override what matters. */
export function testUser(overrides: Partial<AuthUser> = {}): AuthUser {
  return {
    id: 1,
    name: 'Ann Lee',
    username: 'ann',
    email: 'ann@example.com',
    email_tmp: null,
    photo: null,
    activated: true,
    delete_at: null,
    default_source: null,
    two_factor_authentication: false,
    two_factor_authentication_confirmed: false,
    country_id: null,
    users_billing_address: null,
    subscription_id: null,
    role: 'USER',
    has_password: true,
    ...overrides,
  };
}
