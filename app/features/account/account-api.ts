import { API_BASES } from '#shared/api-bases.ts';
import {
  ACCOUNT_PATHS,
  AVATAR_FIELD,
  type DevicesResponse,
  type LogoutDeviceRequest,
  type ProfileUpdateRequest,
  type RecoveryCodesRequest,
  type TwoFactorConfirmResponse,
  type TwoFactorQrResponse,
  type UpdatePasswordRequest,
} from '#shared/contracts/account.ts';
import type { SuccessResponse } from '#shared/contracts/auth.ts';
import type { AuthUserResponse } from '#shared/contracts/auth-user.ts';
import type { Lang } from '#shared/locales.ts';
import { isStaff, type Role } from '#shared/roles.ts';
import { api } from '../../api/client.ts';

/** The account calls live on the account base for customers and the dashboard base for staff. */
export function accountBase(role: Role): string {
  return isStaff(role) ? API_BASES.dashboard : API_BASES.account;
}

/** The calls of shared/contracts/account.ts, for a user of `role`. */
export function accountApi(role: Role) {
  const url = (path: string) => `${accountBase(role)}${path}`;
  const withPassword = (path: string) => (password: string) =>
    api.post<SuccessResponse>(url(path), { password });
  return {
    updateProfile: (body: ProfileUpdateRequest) =>
      api.post<AuthUserResponse>(url(ACCOUNT_PATHS.profileUpdate), body),
    uploadPhoto: (file: File, onProgress: (fraction: number) => void, signal?: AbortSignal) => {
      const form = new FormData();
      form.append(AVATAR_FIELD, file);
      return api.upload<AuthUserResponse>(url(ACCOUNT_PATHS.profileUpdate), form, {
        onProgress,
        signal,
      });
    },
    removePhoto: () => api.post<AuthUserResponse>(url(ACCOUNT_PATHS.removePhoto)),
    resendEmailChange: (locale: Lang) =>
      api.post<SuccessResponse>(url(ACCOUNT_PATHS.emailChangeResend), { locale }),
    cancelEmailChange: () => api.post<AuthUserResponse>(url(ACCOUNT_PATHS.emailChangeCancel)),
    confirmEmailChange: (challenge: string) =>
      api.post<AuthUserResponse>(url(ACCOUNT_PATHS.emailChangeConfirm), { challenge }),
    updatePassword: (body: UpdatePasswordRequest) =>
      api.post<SuccessResponse>(url(ACCOUNT_PATHS.updatePassword), body),
    sendPasswordSetLink: (locale: Lang) =>
      api.post<SuccessResponse>(url(ACCOUNT_PATHS.passwordSetLink), { locale }),
    deactivate: (password: string) =>
      api.post<AuthUserResponse>(url(ACCOUNT_PATHS.delete), { password }),
    reactivate: () => api.post<AuthUserResponse>(url(ACCOUNT_PATHS.deleteCancel)),
    enableTwoFactor: () => api.post<AuthUserResponse>(url(ACCOUNT_PATHS.twoFactorEnable)),
    twoFactorQr: () => api.get<TwoFactorQrResponse>(url(ACCOUNT_PATHS.twoFactorQr)),
    confirmTwoFactor: (code: string) =>
      api.post<TwoFactorConfirmResponse>(url(ACCOUNT_PATHS.twoFactorConfirm), { code }),
    disableTwoFactor: (password: string) =>
      api.post<AuthUserResponse>(url(ACCOUNT_PATHS.twoFactorDisable), { password }),
    /** A new set replacing the old; the file's header in the page's language. */
    recoveryCodes: (password: string, locale: Lang) =>
      api.post<Blob>(
        url(ACCOUNT_PATHS.recoveryCodes),
        { password, locale } satisfies RecoveryCodesRequest,
        { responseType: 'blob' },
      ),
    devices: (page: number, signal?: AbortSignal) =>
      api.get<DevicesResponse>(url(ACCOUNT_PATHS.devices), { signal, query: { page } }),
    logoutDevice: (body: LogoutDeviceRequest) =>
      api.post<SuccessResponse>(url(ACCOUNT_PATHS.logoutDevice), body),
    logoutOtherDevices: withPassword(ACCOUNT_PATHS.logoutOtherDevices),
    logoutAllDevices: withPassword(ACCOUNT_PATHS.logoutAllDevices),
  };
}

export type AccountApi = ReturnType<typeof accountApi>;
