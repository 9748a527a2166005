import type { appConfigEndpoint } from '#shared/contracts/app-config.ts';
import type { authEndpoints } from '#shared/contracts/auth.ts';
import type { currentSubscriptionEndpoint } from '#shared/contracts/current-subscription.ts';
import { isStaff, type Role } from '#shared/roles.ts';
import { endpointRef } from '../api/client.ts';

// The calls the first bundle makes, by reference (app/api/client.ts EndpointRef): their
// declarations would bring zod along, which the public home must not load.

type AuthUser = typeof authEndpoints.getAuthUser;

const customerUser = endpointRef<AuthUser>({
  method: 'POST',
  url: '/api/account/v1/users/get-auth-user',
});
const staffUser = endpointRef<typeof authEndpoints.getStaffUser>({
  method: 'POST',
  url: '/api/dashboard/v1/users/get-auth-user',
});

/** §7 get-auth-user lives on the dashboard base for staff and the account base otherwise. */
export function authUserCall(role: Role | undefined) {
  // Both answer the same user; only the base differs.
  return isStaff(role) ? (staffUser as unknown as typeof customerUser) : customerUser;
}

export const signOutCall = endpointRef<typeof authEndpoints.signOut>({
  method: 'POST',
  url: '/api/all/v1/auth/sign-out',
});

export const currentSubscriptionCall = endpointRef<typeof currentSubscriptionEndpoint>({
  method: 'GET',
  url: '/api/account/v1/subscriptions/current',
});

export const appConfigCall = endpointRef<typeof appConfigEndpoint>({
  method: 'GET',
  url: '/api/public/v1/app-config',
});
