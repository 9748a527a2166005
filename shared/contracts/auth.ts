import { z } from 'zod';
import { LANGS } from '../locales.ts';
import { emailSchema } from '../validation/email.ts';
import { currentPasswordSchema, passwordPairSchema } from '../validation/password.ts';
import { requiredString } from '../validation/required.ts';
import { authUserResponse } from './auth-user.ts';

// Identity calls the spec leaves to us (§7 "Not shown"), in the style of §7: POST with a
// JSON body, answers in the shared envelope. Paths are below the base named beside each.

/** `{ success: true }`: what update and delete calls answer (§7). */
export const successResponse = z.object({ success: z.literal(true) });
export type SuccessResponse = z.infer<typeof successResponse>;

const challenge = requiredString(2048);

/** public: POST /auth/sign-up — creates the account, signs it in, sends the verification. */
export const signUpRequest = passwordPairSchema({
  email: emailSchema,
  name: z.string().trim().max(255).optional(),
  locale: z.enum(LANGS).optional(),
});
export type SignUpRequest = z.infer<typeof signUpRequest>;

/** public: POST /auth/sign-in. Unknown e-mail and wrong password answer alike. */
export const signInRequest = z.object({
  email: emailSchema,
  password: currentPasswordSchema,
});
export type SignInRequest = z.infer<typeof signInRequest>;

/**
 * public: POST /auth/sign-in answers the user, or — when two-factor authentication is on —
 * `{ code: 102, challenge }` (§4 "a code of 102 means a two-factor code is needed"); the
 * challenge then goes with the code to /auth/sign-in/two-factor.
 */
export const TWO_FACTOR_REQUIRED = 102 as const;
export const twoFactorRequiredResponse = z.object({
  code: z.literal(TWO_FACTOR_REQUIRED),
  challenge: z.string(),
});
export type TwoFactorRequiredResponse = z.infer<typeof twoFactorRequiredResponse>;
export const signInResponse = z.union([authUserResponse, twoFactorRequiredResponse]);
export type SignInResponse = z.infer<typeof signInResponse>;

/** public: POST /auth/sign-in/two-factor — a six-digit TOTP code or a recovery code. */
export const twoFactorSignInRequest = z.object({ challenge, code: requiredString(32) });
export type TwoFactorSignInRequest = z.infer<typeof twoFactorSignInRequest>;

/** public: POST /auth/password/forgot — answers the same whether the address is known. */
export const forgotPasswordRequest = z.object({
  email: emailSchema,
  locale: z.enum(LANGS).optional(),
});
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequest>;

/** public: POST /auth/password/reset — the challenge from the e-mailed link. */
export const resetPasswordRequest = passwordPairSchema({ challenge });
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

/** all: POST /auth/email/verify — the challenge from the e-mailed link. */
export const verifyEmailRequest = z.object({ challenge });
export type VerifyEmailRequest = z.infer<typeof verifyEmailRequest>;

/** all: POST /auth/email/resend — a new verification link to the signed-in user. */
export const resendVerificationRequest = z.object({ locale: z.enum(LANGS).optional() });

/** all: POST /auth/password/set — for accounts made without a password (§2 password.set). */
export const setPasswordRequest = passwordPairSchema({ challenge });
export type SetPasswordRequest = z.infer<typeof setPasswordRequest>;

// all: POST /auth/sign-out — ends this session, answers successResponse.
// account and dashboard: POST /users/get-auth-user — authUserResponse (contracts/auth-user.ts).

export const AUTH_PATHS = {
  signUp: '/auth/sign-up',
  signIn: '/auth/sign-in',
  signInTwoFactor: '/auth/sign-in/two-factor',
  signOut: '/auth/sign-out',
  forgotPassword: '/auth/password/forgot',
  resetPassword: '/auth/password/reset',
  verifyEmail: '/auth/email/verify',
  resendVerification: '/auth/email/resend',
  setPassword: '/auth/password/set',
  authUser: '/users/get-auth-user',
} as const;

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
