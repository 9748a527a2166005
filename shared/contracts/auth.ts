import { z } from 'zod';
import { LANGS } from '../locales.ts';
import { emailSchema } from '../validation/email.ts';
import { currentPasswordSchema, passwordPairSchema } from '../validation/password.ts';
import { requiredString } from '../validation/required.ts';
import { authUserResponse } from './auth-user.ts';
import { endpoint, ownAccountEndpoint } from './endpoint.ts';

// Identity calls the spec leaves to us (§7 "Not shown"), in the style of §7: POST with a
// JSON body, answers in the shared envelope. Declared at the end of the file.

/** `{ success: true }`: what update and delete calls answer (§7). */
export const successResponse = z.object({ success: z.literal(true) });
export type SuccessResponse = z.infer<typeof successResponse>;

const challenge = requiredString(2048);

/** Sign-up: creates the account, signs it in, sends the verification. */
export const signUpRequest = passwordPairSchema({
  email: emailSchema,
  name: z.string().trim().max(255).optional(),
  locale: z.enum(LANGS).optional(),
});
export type SignUpRequest = z.infer<typeof signUpRequest>;

/** Sign-in. Unknown e-mail and wrong password answer alike. */
export const signInRequest = z.object({
  email: emailSchema,
  password: currentPasswordSchema,
});
export type SignInRequest = z.infer<typeof signInRequest>;

/**
 * Sign-in answers the user, or — when two-factor authentication is on —
 * `{ code: 102, challenge }` (§4 "a code of 102 means a two-factor code is needed"); the
 * challenge then goes with the code to `signInTwoFactor`.
 */
export const TWO_FACTOR_REQUIRED = 102 as const;
export const twoFactorRequiredResponse = z.object({
  code: z.literal(TWO_FACTOR_REQUIRED),
  challenge: z.string(),
});
export type TwoFactorRequiredResponse = z.infer<typeof twoFactorRequiredResponse>;
export const signInResponse = z.union([authUserResponse, twoFactorRequiredResponse]);
export type SignInResponse = z.infer<typeof signInResponse>;

/** The sign-in's second step: a six-digit TOTP code or a recovery code. */
export const twoFactorSignInRequest = z.object({ challenge, code: requiredString(32) });
export type TwoFactorSignInRequest = z.infer<typeof twoFactorSignInRequest>;

/** Password forgotten: answers the same whether the address is known. */
export const forgotPasswordRequest = z.object({
  email: emailSchema,
  locale: z.enum(LANGS).optional(),
});
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequest>;

/** Password reset: the challenge from the e-mailed link. */
export const resetPasswordRequest = passwordPairSchema({ challenge });
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

/** E-mail verification: the challenge from the e-mailed link. */
export const verifyEmailRequest = z.object({ challenge });
export type VerifyEmailRequest = z.infer<typeof verifyEmailRequest>;

/** A new verification link to the signed-in user. */
export const resendVerificationRequest = z.object({ locale: z.enum(LANGS).optional() });

/** For accounts made without a password (§2 password.set). */
export const setPasswordRequest = passwordPairSchema({ challenge });
export type SetPasswordRequest = z.infer<typeof setPasswordRequest>;

/** The signed-in user (§7 users/get-auth-user), on the account and the dashboard base. */
const getAuthUser = ownAccountEndpoint(
  {
    method: 'POST',
    path: '/users/get-auth-user',
    summary: 'The signed-in user',
    tag: 'users',
    appScope: 'account',
    response: authUserResponse,
  },
  { deactivated: true },
);

export const authEndpoints = {
  signUp: endpoint({
    method: 'POST',
    base: 'public',
    path: '/auth/sign-up',
    access: 'public',
    feature: 'auth',
    summary: 'Create an account, sign it in and send the verification e-mail',
    body: signUpRequest,
    response: authUserResponse,
    status: 201,
  }),
  /** Unknown e-mail and wrong password answer alike. */
  signIn: endpoint({
    method: 'POST',
    base: 'public',
    path: '/auth/sign-in',
    access: 'public',
    summary: 'Sign in; answers code 102 when a two-factor code is needed',
    body: signInRequest,
    response: signInResponse,
  }),
  signInTwoFactor: endpoint({
    method: 'POST',
    base: 'public',
    path: '/auth/sign-in/two-factor',
    access: 'public',
    summary: 'Finish a sign-in with a two-factor or recovery code',
    body: twoFactorSignInRequest,
    response: authUserResponse,
  }),
  forgotPassword: endpoint({
    method: 'POST',
    base: 'public',
    path: '/auth/password/forgot',
    access: 'public',
    summary: 'E-mail a password reset link (same answer for unknown addresses)',
    body: forgotPasswordRequest,
    response: successResponse,
  }),
  resetPassword: endpoint({
    method: 'POST',
    base: 'public',
    path: '/auth/password/reset',
    access: 'public',
    summary: 'Set a new password from a reset link; ends every session',
    body: resetPasswordRequest,
    response: successResponse,
  }),
  /**
   * Ends this browser's session if it has one, and forgets the cookies either way: a page
   * whose session already expired must still be able to sign out cleanly.
   */
  signOut: endpoint({
    method: 'POST',
    base: 'all',
    path: '/auth/sign-out',
    access: 'public',
    summary: 'Sign out this browser',
    response: successResponse,
  }),
  verifyEmail: endpoint({
    method: 'POST',
    base: 'all',
    path: '/auth/email/verify',
    access: 'signed-in',
    summary:
      'Verify the e-mail address with the challenge from the link; renews the session cookie',
    body: verifyEmailRequest,
    response: authUserResponse,
  }),
  resendVerification: endpoint({
    method: 'POST',
    base: 'all',
    path: '/auth/email/resend',
    access: 'signed-in',
    summary: 'Send a new verification link',
    body: resendVerificationRequest.nullish(),
    response: successResponse,
  }),
  setPassword: endpoint({
    method: 'POST',
    base: 'all',
    path: '/auth/password/set',
    access: 'signed-in',
    summary: 'Set a password with the challenge from the link',
    body: setPasswordRequest,
    response: successResponse,
  }),
  getAuthUser: getAuthUser.account,
  getStaffUser: getAuthUser.dashboard,
};

/** Message keys the identity calls answer with, named once for the server and the app. */
export const AUTH_MESSAGES = {
  invalidCredentials: 'errors.invalid_credentials',
  accountBlocked: 'errors.account_blocked',
  linkInvalid: 'errors.link_invalid',
  alreadyVerified: 'errors.already_verified',
  csrf: 'errors.csrf',
  emailTaken: 'input_errors.email_taken',
  signInExpired: 'errors.sign_in_expired',
} as const;
