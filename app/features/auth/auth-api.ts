import { API_BASES } from '#shared/api-bases.ts';
import {
  AUTH_PATHS,
  type ForgotPasswordRequest,
  type ResetPasswordRequest,
  type SetPasswordRequest,
  type SignInRequest,
  type SignInResponse,
  type SignUpRequest,
  type SuccessResponse,
  type TwoFactorSignInRequest,
  type VerifyEmailRequest,
} from '#shared/contracts/auth.ts';
import type { AuthUserResponse } from '#shared/contracts/auth-user.ts';
import type { Lang } from '#shared/locales.ts';
import { api } from '../../api/client.ts';

const publicCall = (path: string) => `${API_BASES.public}${path}`;
const signedInCall = (path: string) => `${API_BASES.all}${path}`;

// The identity calls of shared/contracts/auth.ts: visitors' calls on the public base, calls
// of a signed-in user (any role) on the all-roles base.
export const authApi = {
  signIn: (body: SignInRequest) => api.post<SignInResponse>(publicCall(AUTH_PATHS.signIn), body),
  signInTwoFactor: (body: TwoFactorSignInRequest) =>
    api.post<AuthUserResponse>(publicCall(AUTH_PATHS.signInTwoFactor), body),
  signUp: (body: SignUpRequest) => api.post<AuthUserResponse>(publicCall(AUTH_PATHS.signUp), body),
  forgotPassword: (body: ForgotPasswordRequest) =>
    api.post<SuccessResponse>(publicCall(AUTH_PATHS.forgotPassword), body),
  resetPassword: (body: ResetPasswordRequest) =>
    api.post<SuccessResponse>(publicCall(AUTH_PATHS.resetPassword), body),
  verifyEmail: (body: VerifyEmailRequest) =>
    api.post<AuthUserResponse>(signedInCall(AUTH_PATHS.verifyEmail), body),
  resendVerification: (locale: Lang) =>
    api.post<SuccessResponse>(signedInCall(AUTH_PATHS.resendVerification), { locale }),
  setPassword: (body: SetPasswordRequest) =>
    api.post<SuccessResponse>(signedInCall(AUTH_PATHS.setPassword), body),
};
