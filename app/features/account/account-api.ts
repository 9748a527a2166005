import { AVATAR_FIELD, accountEndpoints } from '#shared/contracts/account.ts';
import type { RequestBody } from '#shared/contracts/endpoint.ts';
import type { Lang } from '#shared/locales.ts';
import { isStaff, type Role } from '#shared/roles.ts';
import { call, download, uploadTo } from '../../api/client.ts';

type Twin = (typeof accountEndpoints)[keyof typeof accountEndpoints];

/** The own-account calls live on the account base for customers, the dashboard's for staff. */
export function accountApi(role: Role) {
  const staff = isStaff(role);
  // Both twins take and answer the same; only the URL differs.
  const at = <T extends Twin>(twin: T) => (staff ? twin.dashboard : twin.account) as T['account'];
  const e = accountEndpoints;
  return {
    updateProfile: (body: RequestBody<typeof e.profileUpdate.account>) =>
      call(at(e.profileUpdate), { body }),
    uploadPhoto: (file: File, onProgress: (fraction: number) => void, signal?: AbortSignal) => {
      const form = new FormData();
      form.append(AVATAR_FIELD, file);
      return uploadTo(at(e.profileUpdate), form, { onProgress, signal });
    },
    removePhoto: () => call(at(e.removePhoto)),
    resendEmailChange: (locale: Lang) => call(at(e.emailChangeResend), { body: { locale } }),
    cancelEmailChange: () => call(at(e.emailChangeCancel)),
    confirmEmailChange: (challenge: string) =>
      call(at(e.emailChangeConfirm), { body: { challenge } }),
    updatePassword: (body: RequestBody<typeof e.updatePassword.account>) =>
      call(at(e.updatePassword), { body }),
    sendPasswordSetLink: (locale: Lang) => call(at(e.passwordSetLink), { body: { locale } }),
    deactivate: (password: string) => call(at(e.delete), { body: { password } }),
    reactivate: () => call(at(e.deleteCancel)),
    enableTwoFactor: () => call(at(e.twoFactorEnable)),
    twoFactorQr: () => call(at(e.twoFactorQr)),
    confirmTwoFactor: (code: string) => call(at(e.twoFactorConfirm), { body: { code } }),
    disableTwoFactor: (password: string) => call(at(e.twoFactorDisable), { body: { password } }),
    /** A new set replacing the old; the file's header in the page's language. */
    recoveryCodes: (password: string, locale: Lang) =>
      download(at(e.recoveryCodes), { body: { password, locale } }),
    devices: (page: number, signal?: AbortSignal) =>
      call(at(e.devices), { query: { page } }, { signal }),
    logoutDevice: (body: RequestBody<typeof e.logoutDevice.account>) =>
      call(at(e.logoutDevice), { body }),
    logoutOtherDevices: (password: string) =>
      call(at(e.logoutOtherDevices), { body: { password } }),
    logoutAllDevices: (password: string) => call(at(e.logoutAllDevices), { body: { password } }),
  };
}

export type AccountApi = ReturnType<typeof accountApi>;
