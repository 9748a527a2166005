import { z } from 'zod';
import { LANGS } from '../locales.ts';
import { emailSchema } from '../validation/email.ts';
import {
  currentPasswordSchema,
  passwordConfirmationSchema,
  passwordPairSchema,
} from '../validation/password.ts';
import { requiredString } from '../validation/required.ts';

// The signed-in user's own account (§7 Account: profile, two-factor, devices). Every path
// is mounted on the account base for customers and on the dashboard base for staff
// (/admin/account), answering the same shapes. Paths are below the base.

export const ACCOUNT_PATHS = {
  profileUpdate: '/profile/update',
  removePhoto: '/profile/remove-user-photo',
  delete: '/profile/delete',
  deleteCancel: '/profile/delete/cancel',
  updatePassword: '/profile/update-password',
  emailChangeResend: '/profile/email-change/resend',
  emailChangeCancel: '/profile/email-change/cancel',
  emailChangeConfirm: '/profile/email-change/confirm',
  twoFactorQr: '/profile/two-factor-authentication/get-qr',
  twoFactorEnable: '/profile/two-factor-authentication/enable',
  twoFactorConfirm: '/profile/two-factor-authentication/confirm',
  twoFactorDisable: '/profile/two-factor-authentication/disable',
  recoveryCodes: '/profile/two-factor-authentication/get-recovery-codes',
  devices: '/devices/list',
  logoutDevice: '/devices/logout-by-device-id',
  logoutOtherDevices: '/devices/logout-other-devices',
  logoutAllDevices: '/devices/logout-all-devices',
} as const;

/** §5 Profile: username and e-mail required, name optional. A new e-mail waits in email_tmp. */
export const profileUpdateRequest = z.object({
  name: z.string().trim().max(255).nullable().optional(),
  username: requiredString(64).pipe(
    z.string().regex(/^[\p{L}\p{N}_.-]+$/u, 'input_errors.username_is_invalid'),
  ),
  email: emailSchema,
  locale: z.enum(LANGS).optional(),
});
export type ProfileUpdateRequest = z.infer<typeof profileUpdateRequest>;

/** §5 the avatar: at most 20 MB, sent as the multipart field `photo`. */
export const AVATAR_MAX_BYTES = 20 * 1024 * 1024;
export const AVATAR_FIELD = 'photo';

/** A password-confirmed action (§5: required, a server error shows under the field). */
export const passwordConfirmation = z.object({ password: passwordConfirmationSchema });
export type PasswordConfirmation = z.infer<typeof passwordConfirmation>;

export const updatePasswordRequest = passwordPairSchema({
  current_password: currentPasswordSchema,
});
export type UpdatePasswordRequest = z.infer<typeof updatePasswordRequest>;

export const emailChangeConfirmRequest = z.object({ challenge: requiredString(2048) });

/** §7 get-qr: the otpauth secret (code) and the QR as SVG markup. */
export const twoFactorQrResponse = z.object({ code: z.string(), svg: z.string() });
export type TwoFactorQrResponse = z.infer<typeof twoFactorQrResponse>;

/** §5 a six-digit TOTP code, or a recovery code at sign-in. */
export const twoFactorCodeRequest = z.object({
  code: requiredString(32).pipe(z.string().regex(/^[0-9]{6}$/, 'input_errors.code_is_invalid')),
});

/** The recovery codes are shown once, on confirmation, and downloadable with the password. */
export const twoFactorConfirmResponse = z.object({
  success: z.literal(true),
  recovery_codes: z.array(z.string()),
});

/** §3 Device: one signed-in browser. */
export const device = z.object({
  id: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  last_login_at: z.string(),
  isCurrent: z.boolean(),
});
export type Device = z.infer<typeof device>;

/** The current device first (§4), then the most recent. */
export const devicesResponse = z.object({ items: z.array(device) });
export type DevicesResponse = z.infer<typeof devicesResponse>;

export const logoutDeviceRequest = z.object({
  password: passwordConfirmationSchema,
  id: z.uuid({ error: 'input_errors.field_is_invalid' }),
});
export type LogoutDeviceRequest = z.infer<typeof logoutDeviceRequest>;
