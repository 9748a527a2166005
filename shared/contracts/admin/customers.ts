import { z } from 'zod';
import { emailSchema } from '../../validation/email.ts';
import { currentPasswordSchema, passwordPairSchema } from '../../validation/password.ts';
import { recordId, recordIdNumber } from '../../validation/record-id.ts';
import { requiredString } from '../../validation/required.ts';
import { device } from '../account.ts';
import { endpoint } from '../endpoint.ts';
import { booleanFilter, listResponse, pagingQuery, searchFilter, sortQuery } from '../list.ts';

// §2 /admin/customers and /admin/customers/{id}; §6 the admin's abilities over users; §7
// dashboard /users. Admin only, and only while the `users` feature flag is on (§1). Where
// §7 names a `password`, it is the acting admin's own, checked before anything changes.

/** Roles staff can give an account; VPN_SERVER accounts belong to the servers section. */
export const CUSTOMER_ROLES = ['USER', 'ADMIN', 'AUTHOR'] as const;
export type CustomerRole = (typeof CUSTOMER_ROLES)[number];

const userId = recordId;
const adminPassword = currentPasswordSchema;

/** A row of the customers list. */
export const customerSummary = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  username: z.string(),
  email: z.string(),
  role: z.enum(['USER', 'ADMIN', 'AUTHOR', 'VPN_SERVER', 'PUBLIC']),
  /** The e-mail address is verified. */
  activated: z.boolean(),
  blocked: z.boolean(),
  /** Set while the account is deactivated: when it will be deleted (§4). */
  delete_at: z.string().nullable(),
  created_at: z.string(),
});
export type CustomerSummary = z.infer<typeof customerSummary>;

/** The customer page: the profile, its status and what staff may act on. */
export const customerDetail = customerSummary.extend({
  email_tmp: z.string().nullable(),
  photo: z.string().nullable(),
  country_id: z.number().int().nullable(),
  locale: z.string(),
  blocked_at: z.string().nullable(),
  /** Monthly VPN traffic allowed, in GB; null is unlimited. */
  traffic_limit: z.number().int().nullable(),
  two_factor_authentication: z.boolean(),
  two_factor_authentication_confirmed: z.boolean(),
  has_password: z.boolean(),
  /** Signed-in devices (sessions) right now. */
  devices_count: z.number().int(),
});
export type CustomerDetail = z.infer<typeof customerDetail>;

export const customerResponse = z.object({ user: customerDetail });
export type CustomerResponse = z.infer<typeof customerResponse>;

export const CUSTOMER_SORTS = ['created_at', 'email', 'name', 'username'] as const;

/** §2 search by e-mail, name or username; filters by role and status; sorted; paged. */
export const customersQuery = pagingQuery.merge(sortQuery(CUSTOMER_SORTS, 'created_at')).extend({
  search: searchFilter,
  role: z
    .enum(['USER', 'ADMIN', 'AUTHOR', 'VPN_SERVER'], { error: 'input_errors.field_is_invalid' })
    .optional(),
  verified: booleanFilter,
  blocked: booleanFilter,
  deactivated: booleanFilter,
});
export type CustomersQuery = z.infer<typeof customersQuery>;

export const customersResponse = listResponse(customerSummary);
export type CustomersResponse = z.infer<typeof customersResponse>;

/**
 * §5 admin user-create form: name, email, password, password_confirmation; and the role. An
 * admin or author account gives staff powers, so it also takes the acting admin's own
 * password (`current_password`).
 */
export const customerCreateRequest = passwordPairSchema({
  name: requiredString(255),
  email: emailSchema,
  role: z.enum(CUSTOMER_ROLES, { error: 'input_errors.field_is_invalid' }),
  current_password: adminPassword.optional(),
});
export type CustomerCreateRequest = z.infer<typeof customerCreateRequest>;

/** The account a call is about, in a query or a body. */
export const customerIdInput = z.object({ user_id: userId });

/**
 * Name, e-mail, country. A new e-mail address is a new way into the account (a reset link
 * goes there), so changing it takes the acting admin's own `password` too.
 */
export const customerUpdateRequest = z.object({
  user_id: userId,
  name: z.string().trim().max(255, { error: 'input_errors.field_is_too_long' }).nullable(),
  email: emailSchema,
  country_id: recordIdNumber.nullable(),
  password: adminPassword.optional(),
});
export type CustomerUpdateRequest = z.infer<typeof customerUpdateRequest>;

/** Gigabytes a month, 0 to a petabyte; null lifts the limit. */
export const trafficLimitRequest = z.object({
  user_id: userId,
  traffic_limit: z
    .number({ error: 'input_errors.field_is_invalid' })
    .int({ error: 'input_errors.field_is_invalid' })
    .min(0, { error: 'input_errors.field_is_invalid' })
    .max(1_000_000, { error: 'input_errors.field_is_invalid' })
    .nullable(),
});

/** `status`: true blocks, false unblocks; the admin's password confirms it. */
export const customerBlockRequest = z.object({
  user_id: userId,
  status: z.boolean({ error: 'input_errors.field_is_invalid' }),
  password: adminPassword,
});

export const customerPasswordConfirmedRequest = z.object({
  user_id: userId,
  password: adminPassword,
});

/** A new password for the customer; `current_password` is the acting admin's. */
export const customerPasswordRequest = passwordPairSchema({
  user_id: userId,
  current_password: adminPassword,
});

export const customerDevicesQuery = pagingQuery.extend({ user_id: userId });
export const customerDevicesResponse = listResponse(device.omit({ isCurrent: true }));
export const customerDeviceLogoutRequest = z.object({
  user_id: userId,
  id: z.uuid({ error: 'input_errors.field_is_invalid' }),
});

export const successAnswer = z.object({ success: z.literal(true) });

/** Message keys these calls answer with. */
export const CUSTOMER_MESSAGES = {
  notYourself: 'errors.not_on_yourself',
  alreadyVerified: 'errors.already_verified',
  noEmailChange: 'errors.no_email_change',
  twoFactorNotEnabled: 'errors.two_factor_not_enabled',
  notDeactivated: 'errors.account_not_deactivated',
  alreadyDeactivated: 'errors.account_deactivated',
} as const;

const staff = { base: 'dashboard', access: { permission: 'customers' }, feature: 'users' } as const;
const tag = 'customers';

export const customerEndpoints = {
  list: endpoint({
    ...staff,
    tag,
    method: 'GET',
    path: '/users',
    summary: 'Customers: search, filter, sort, a page at a time',
    query: customersQuery,
    response: customersResponse,
  }),
  create: endpoint({
    ...staff,
    tag,
    method: 'POST',
    path: '/users/create',
    summary: 'Create an account; its owner gets an activation link',
    body: customerCreateRequest,
    response: customerResponse,
    status: 201,
  }),
  view: endpoint({
    ...staff,
    tag,
    method: 'GET',
    path: '/users/view',
    summary: 'One customer',
    query: customerIdInput,
    response: customerResponse,
  }),
  update: endpoint({
    ...staff,
    tag,
    method: 'POST',
    path: '/users/update',
    summary: 'Change name, e-mail (to be verified again) and country',
    body: customerUpdateRequest,
    response: customerResponse,
  }),
  updateTrafficLimit: endpoint({
    ...staff,
    tag,
    method: 'POST',
    path: '/users/update-traffic-limit',
    summary: 'Set the monthly traffic limit in GB (null: unlimited)',
    body: trafficLimitRequest,
    response: customerResponse,
  }),
  devices: endpoint({
    ...staff,
    tag,
    method: 'GET',
    path: '/users/devices',
    summary: "The customer's signed-in devices, the most recent first",
    query: customerDevicesQuery,
    response: customerDevicesResponse,
  }),
  logoutDevice: endpoint({
    ...staff,
    tag,
    method: 'POST',
    path: '/users/devices/logout',
    summary: 'Sign one of the customer’s devices out',
    body: customerDeviceLogoutRequest,
    response: successAnswer,
  }),
  block: endpoint({
    ...staff,
    tag,
    method: 'POST',
    path: '/users/block',
    summary: 'Block (ends every session at once) or unblock; needs the admin’s password',
    body: customerBlockRequest,
    response: customerResponse,
  }),
  delete: endpoint({
    ...staff,
    tag,
    method: 'POST',
    path: '/users/delete',
    summary: 'Deactivate the account (deleted after the grace period); needs the admin’s password',
    body: customerPasswordConfirmedRequest,
    response: customerResponse,
  }),
  deleteCancel: endpoint({
    ...staff,
    tag,
    method: 'POST',
    path: '/users/delete/cancel',
    summary: 'Restore a deactivated account; needs the admin’s password',
    body: customerPasswordConfirmedRequest,
    response: customerResponse,
  }),
  updatePassword: endpoint({
    ...staff,
    tag,
    method: 'POST',
    path: '/users/update-password',
    summary: 'Set a new password (every session ends); needs the admin’s password',
    body: customerPasswordRequest,
    response: customerResponse,
  }),
  disableTwoFactor: endpoint({
    ...staff,
    tag,
    method: 'POST',
    path: '/users/disable-two-factor-authentication',
    summary: 'Turn two-factor authentication off; needs the admin’s password',
    body: customerPasswordConfirmedRequest,
    response: customerResponse,
  }),
  resendActivationLink: endpoint({
    ...staff,
    tag,
    method: 'POST',
    path: '/users/resend-activation-link',
    summary: 'E-mail a new verification link to an unverified account',
    body: customerIdInput,
    response: successAnswer,
  }),
  cancelEmailChange: endpoint({
    ...staff,
    tag,
    method: 'POST',
    path: '/users/email/new-email/cancel',
    summary: 'Cancel the pending change of e-mail address',
    body: customerIdInput,
    response: customerResponse,
  }),
  resendEmailChange: endpoint({
    ...staff,
    tag,
    method: 'POST',
    path: '/users/email/new-email/resend',
    summary: 'Send the confirmation link for the pending e-mail address again',
    body: customerIdInput,
    response: successAnswer,
  }),
};
