import { z } from 'zod';
import { LANGS } from '../locales.ts';
import { emailSchema } from '../validation/email.ts';
import {
  currentPasswordSchema,
  passwordConfirmationSchema,
  passwordPairSchema,
} from '../validation/password.ts';
import { requiredString } from '../validation/required.ts';
import { authUser } from './auth-user.ts';
import { listResponse, pagingQuery } from './list.ts';

// The signed-in user's own account (§7 Account: profile, two-factor, devices). Every path
// is mounted on the account base for customers and on the dashboard base for staff
// (/admin/account), answering the same shapes. Paths are below the base.

export const ACCOUNT_PATHS = {
  /** JSON {name, username, email}, or multipart with the file field `photo`. */
  profileUpdate: '/profile/update',
  removePhoto: '/profile/remove-user-photo',
  delete: '/profile/delete',
  deleteCancel: '/profile/delete/cancel',
  updatePassword: '/profile/update-password',
  /** For an account without a password (social sign-in): e-mails a password.set link. */
  passwordSetLink: '/profile/password-set-link',
  emailChangeResend: '/profile/email-change/resend',
  emailChangeCancel: '/profile/email-change/cancel',
  emailChangeConfirm: '/profile/email-change/confirm',
  twoFactorQr: '/profile/two-factor-authentication/get-qr',
  twoFactorEnable: '/profile/two-factor-authentication/enable',
  twoFactorConfirm: '/profile/two-factor-authentication/confirm',
  twoFactorDisable: '/profile/two-factor-authentication/disable',
  /**
   * §7 names this a GET with {password}; it is a POST here so that the password travels in
   * the body, never in a URL that proxies and logs keep. Answers text/plain.
   */
  recoveryCodes: '/profile/two-factor-authentication/get-recovery-codes',
  devices: '/devices/list',
  logoutDevice: '/devices/logout-by-device-id',
  logoutOtherDevices: '/devices/logout-other-devices',
  logoutAllDevices: '/devices/logout-all-devices',
} as const;

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
