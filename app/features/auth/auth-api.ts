import { authEndpoints as e } from '#shared/contracts/auth.ts';
import type { RequestBody } from '#shared/contracts/endpoint.ts';
import type { Lang } from '#shared/locales.ts';
import { call } from '../../api/client.ts';

// The identity calls of shared/contracts/auth.ts.
export const authApi = {
  signIn: (body: RequestBody<typeof e.signIn>) => call(e.signIn, { body }),
  signInTwoFactor: (body: RequestBody<typeof e.signInTwoFactor>) =>
    call(e.signInTwoFactor, { body }),
  signUp: (body: RequestBody<typeof e.signUp>) => call(e.signUp, { body }),
  forgotPassword: (body: RequestBody<typeof e.forgotPassword>) => call(e.forgotPassword, { body }),
  resetPassword: (body: RequestBody<typeof e.resetPassword>) => call(e.resetPassword, { body }),
  verifyEmail: (body: RequestBody<typeof e.verifyEmail>) => call(e.verifyEmail, { body }),
  resendVerification: (locale: Lang) => call(e.resendVerification, { body: { locale } }),
  setPassword: (body: RequestBody<typeof e.setPassword>) => call(e.setPassword, { body }),
};
