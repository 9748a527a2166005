import { z } from 'zod';
import { LANGS } from '../locales.ts';
import { emailSchema } from '../validation/email.ts';
import {
  currentPasswordSchema,
  passwordConfirmationSchema,
  passwordPairSchema,
} from '../validation/password.ts';
import { requiredString } from '../validation/required.ts';
import { successResponse } from './auth.ts';
import { authUser, authUserResponse } from './auth-user.ts';
import { ownAccountEndpoint } from './endpoint.ts';
import { listResponse, pagingQuery } from './list.ts';

// The signed-in user's own account (§7 Account: profile, two-factor, devices). Every call
// is served on the account base for customers and on the dashboard base for staff
// (/admin/account), answering the same shapes; declared at the end of the file.

/** Message keys the account calls answer with, named once for the server and the app. */
export const ACCOUNT_MESSAGES = {
  passwordIncorrect: 'errors.password_incorrect',
  codeIncorrect: 'errors.code_incorrect',
  codeAlreadyUsed: 'errors.code_already_used',
  twoFactorNotEnabled: 'errors.two_factor_not_enabled',
  twoFactorAlreadyConfirmed: 'errors.two_factor_already_confirmed',
  deviceNotFound: 'errors.device_not_found',
  noEmailChange: 'errors.no_email_change',
  imageInvalid: 'errors.image_invalid',
  imageTooLarge: 'errors.image_too_large',
  accountDeactivated: 'errors.account_deactivated',
  emailUnverified: 'errors.email_unverified',
  accountNotDeactivated: 'errors.account_not_deactivated',
  emailChangeFailed: 'errors.email_change_failed',
  usernameTaken: 'input_errors.username_taken',
  passwordAlreadySet: 'errors.password_already_set',
} as const;

/** §5 Profile: username and e-mail required, name optional. A new e-mail waits in email_tmp. */
export const profileUpdateRequest = z.object({
  name: z.string().trim().max(255).nullable().optional(),
  username: requiredString(64).pipe(
    z.string().regex(/^[\p{L}\p{N}_.-]+$/u, 'input_errors.username_is_invalid'),
  ),
  email: emailSchema,
  /** The language the confirmation of a new e-mail address is written in. */
  locale: z.enum(LANGS).optional(),
});
export type ProfileUpdateRequest = z.infer<typeof profileUpdateRequest>;

/** §5/§9 the avatar: at most 20 MB, sent as the multipart field `photo`. */
export const AVATAR_MAX_BYTES = 20 * 1024 * 1024;
export const AVATAR_FIELD = 'photo';

/** A password-confirmed action (§5: required, a server error shows under the field). */
export const passwordConfirmation = z.object({ password: passwordConfirmationSchema });
export type PasswordConfirmation = z.infer<typeof passwordConfirmation>;

export const updatePasswordRequest = passwordPairSchema({
  current_password: currentPasswordSchema,
});
export type UpdatePasswordRequest = z.infer<typeof updatePasswordRequest>;

/** A resend of the e-mail change link may name the language to write it in. */
export const emailChangeResendRequest = z.object({ locale: z.enum(LANGS).optional() });
export type EmailChangeResendRequest = z.infer<typeof emailChangeResendRequest>;

export const emailChangeConfirmRequest = z.object({ challenge: requiredString(2048) });
export type EmailChangeConfirmRequest = z.infer<typeof emailChangeConfirmRequest>;

/** §7 get-qr: the otpauth secret (code) and the QR as SVG markup. */
export const twoFactorQrResponse = z.object({ code: z.string(), svg: z.string() });
export type TwoFactorQrResponse = z.infer<typeof twoFactorQrResponse>;

/** §5 a six-digit TOTP code, fully filled. */
export const TOTP_DIGITS = 6;
export const totpCodeSchema = requiredString(32).pipe(
  z.string().regex(/^[0-9]{6}$/, 'input_errors.code_is_invalid'),
);
export const twoFactorCodeRequest = z.object({ code: totpCodeSchema });
export type TwoFactorCodeRequest = z.infer<typeof twoFactorCodeRequest>;

/**
 * Confirming the setup turns two-factor on and answers a first set of recovery codes, shown
 * once; later sets come from get-recovery-codes with the password.
 */
export const twoFactorConfirmResponse = z.object({
  user: authUser,
  recovery_codes: z.array(z.string()),
});
export type TwoFactorConfirmResponse = z.infer<typeof twoFactorConfirmResponse>;

/** §3 Device: one signed-in browser. */
export const device = z.object({
  id: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** When this device signed in. */
  last_login_at: z.string(),
  isCurrent: z.boolean(),
});
export type Device = z.infer<typeof device>;

/** §3 paging of the devices list; a user has a handful, so the first page holds them. */
export const devicesQuery = pagingQuery;
export type DevicesQuery = z.infer<typeof devicesQuery>;

/** The current device first (§4: at the top of the first page), then the most recent. */
export const devicesResponse = listResponse(device);
export type DevicesResponse = z.infer<typeof devicesResponse>;

export const logoutDeviceRequest = z.object({
  password: passwordConfirmationSchema,
  id: z.uuid({ error: 'input_errors.field_is_invalid' }),
});
export type LogoutDeviceRequest = z.infer<typeof logoutDeviceRequest>;

/** The file name §4 gives the downloaded recovery codes. */
export const RECOVERY_CODES_FILE = '2fa_recovery_codes.txt';

/**
 * get-recovery-codes: the password, and the language the file's header is written in (the
 * page's; the account's language when left out).
 */
export const recoveryCodesRequest = passwordConfirmation.extend({
  locale: z.enum(LANGS).optional(),
});
export type RecoveryCodesRequest = z.infer<typeof recoveryCodesRequest>;

/** get-recovery-codes answers the file itself (text/plain): a header, then one code a line. */
export const recoveryCodesResponse = z.string();

/** The calls of the own account, each declared for the account and the dashboard base. */
export const accountEndpoints = {
  /** JSON {name, username, email}, or multipart with the file field `photo` (§5). */
  profileUpdate: ownAccountEndpoint({
    method: 'POST',
    path: '/profile/update',
    summary:
      'Update name, username and e-mail (JSON), or the avatar (multipart field `photo`, ≤ 20 MB)',
    // A multipart request carries no JSON body; its file is read by the handler.
    body: profileUpdateRequest.nullish(),
    multipart: true,
    response: authUserResponse,
  }),
  removePhoto: ownAccountEndpoint({
    method: 'POST',
    path: '/profile/remove-user-photo',
    summary: 'Remove the avatar',
    response: authUserResponse,
  }),
  emailChangeResend: ownAccountEndpoint({
    method: 'POST',
    path: '/profile/email-change/resend',
    summary: 'Send the link for the pending e-mail address again',
    body: emailChangeResendRequest.nullish(),
    response: successResponse,
  }),
  emailChangeCancel: ownAccountEndpoint({
    method: 'POST',
    path: '/profile/email-change/cancel',
    summary: 'Cancel the pending e-mail change',
    response: authUserResponse,
  }),
  emailChangeConfirm: ownAccountEndpoint({
    method: 'POST',
    path: '/profile/email-change/confirm',
    summary: 'Confirm the new e-mail address with the challenge from the link',
    body: emailChangeConfirmRequest,
    response: authUserResponse,
  }),
  updatePassword: ownAccountEndpoint({
    method: 'POST',
    path: '/profile/update-password',
    summary: 'Change the password; every other session ends',
    body: updatePasswordRequest,
    response: successResponse,
  }),
  /** For an account without a password (social sign-in): e-mails a password.set link. */
  passwordSetLink: ownAccountEndpoint({
    method: 'POST',
    path: '/profile/password-set-link',
    summary: 'E-mail a link to set a password (accounts made through social sign-in)',
    body: emailChangeResendRequest.nullish(),
    response: successResponse,
  }),
  /** §4 deactivation; a deactivated account may still call it (and cancel it). */
  delete: ownAccountEndpoint(
    {
      method: 'POST',
      path: '/profile/delete',
      summary: 'Deactivate the account (deleted after a grace period unless reactivated)',
      body: passwordConfirmation,
      response: authUserResponse,
    },
    { deactivated: true },
  ),
  deleteCancel: ownAccountEndpoint(
    {
      method: 'POST',
      path: '/profile/delete/cancel',
      summary: 'Reactivate the account',
      response: authUserResponse,
    },
    { deactivated: true },
  ),
  twoFactorEnable: ownAccountEndpoint({
    method: 'POST',
    path: '/profile/two-factor-authentication/enable',
    tag: 'two-factor',
    summary: 'Start the setup: a new secret, not yet confirmed',
    response: authUserResponse,
  }),
  twoFactorQr: ownAccountEndpoint({
    method: 'GET',
    path: '/profile/two-factor-authentication/get-qr',
    tag: 'two-factor',
    summary: 'The QR code (SVG) and secret of the setup in progress',
    response: twoFactorQrResponse,
  }),
  twoFactorConfirm: ownAccountEndpoint({
    method: 'POST',
    path: '/profile/two-factor-authentication/confirm',
    tag: 'two-factor',
    summary: 'Confirm the setup with a code; answers the first recovery codes',
    body: twoFactorCodeRequest,
    response: twoFactorConfirmResponse,
  }),
  twoFactorDisable: ownAccountEndpoint({
    method: 'POST',
    path: '/profile/two-factor-authentication/disable',
    tag: 'two-factor',
    summary: 'Turn two-factor authentication off',
    body: passwordConfirmation,
    response: authUserResponse,
  }),
  /**
   * §7 names this a GET with {password}; it is a POST here so that the password travels in
   * the body, never in a URL that proxies and logs keep. Answers the file as text/plain.
   */
  recoveryCodes: ownAccountEndpoint({
    method: 'POST',
    path: '/profile/two-factor-authentication/get-recovery-codes',
    tag: 'two-factor',
    summary: `A new set of recovery codes as ${RECOVERY_CODES_FILE}; the previous set stops working`,
    body: recoveryCodesRequest,
    produces: 'text',
    response: recoveryCodesResponse,
  }),
  devices: ownAccountEndpoint({
    method: 'GET',
    path: '/devices/list',
    summary: 'Signed-in devices, a page at a time; the current one first',
    query: devicesQuery,
    response: devicesResponse,
  }),
  logoutDevice: ownAccountEndpoint({
    method: 'POST',
    path: '/devices/logout-by-device-id',
    summary: 'Sign one device out',
    body: logoutDeviceRequest,
    response: successResponse,
  }),
  logoutOtherDevices: ownAccountEndpoint({
    method: 'POST',
    path: '/devices/logout-other-devices',
    summary: 'Sign every other device out',
    body: passwordConfirmation,
    response: successResponse,
  }),
  logoutAllDevices: ownAccountEndpoint({
    method: 'POST',
    path: '/devices/logout-all-devices',
    summary: 'Sign every device out, this one too',
    body: passwordConfirmation,
    response: successResponse,
  }),
};
