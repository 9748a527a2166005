import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH_PATHS,
  forgotPasswordRequest,
  resendVerificationRequest,
  resetPasswordRequest,
  setPasswordRequest,
  signInRequest,
  signInResponse,
  signUpRequest,
  successResponse,
  TWO_FACTOR_REQUIRED,
  twoFactorSignInRequest,
  verifyEmailRequest,
} from '#shared/contracts/auth.ts';
import { authUserResponse } from '#shared/contracts/auth-user.ts';
import { STAFF_ROLES } from '#shared/roles.ts';
import type { App } from '../../http/types.ts';
import { publishUserUpdated } from '../realtime/user-events.ts';
import { clearSessionCookie, requireAuth, requireRole, setSessionCookie } from './auth-plugin.ts';
import { AuthService, type SignedIn, type SignInOutcome } from './auth-service.ts';
import { presentAuthUser } from './user-presenter.ts';

const SUCCESS = { success: true } as const;
/** Set by the order pages (billing); signing out forgets it with the session (§4 reaction 1). */
const COUPON_COOKIE = 'coupon';

function signedIn(app: App, reply: FastifyReply, result: SignedIn) {
  setSessionCookie(reply, app.config, result.token);
  return { user: presentAuthUser(result.user) };
}

/** The user and the session cookie, or §4's code 102 with the second step's challenge. */
export function signInAnswer(app: App, reply: FastifyReply, outcome: SignInOutcome) {
  if ('twoFactorChallenge' in outcome) {
    return { code: TWO_FACTOR_REQUIRED, challenge: outcome.twoFactorChallenge } as const;
  }
  return signedIn(app, reply, outcome);
}

/** Runs `then` once the answer has left, or the client has gone. */
function afterAnswer(reply: FastifyReply, then: () => void): void {
  if (reply.raw.closed) then();
  else reply.raw.once('close', then);
}

/** Public base: calls a visitor makes. */
export const authPublicRoutes: FastifyPluginAsyncZod = async (app) => {
  const auth = new AuthService(app);
  const tags = ['auth'];

  app.post(
    AUTH_PATHS.signUp,
    {
      schema: {
        tags,
        summary: 'Create an account, sign it in and send the verification e-mail',
        body: signUpRequest,
        response: { 201: authUserResponse },
      },
    },
    async (request, reply) => {
      const result = await auth.signUp(request, request.body);
      reply.code(201);
      return signedIn(app, reply, result);
    },
  );

  app.post(
    AUTH_PATHS.signIn,
    {
      schema: {
        tags,
        summary: 'Sign in; answers code 102 when a two-factor code is needed',
        body: signInRequest,
        response: { 200: signInResponse },
      },
    },
    async (request, reply) => signInAnswer(app, reply, await auth.signIn(request, request.body)),
  );

  app.post(
    AUTH_PATHS.signInTwoFactor,
    {
      schema: {
        tags,
        summary: 'Finish a sign-in with a two-factor or recovery code',
        body: twoFactorSignInRequest,
        response: { 200: authUserResponse },
      },
    },
    async (request, reply) =>
      signedIn(app, reply, await auth.signInTwoFactor(request, request.body)),
  );

  app.post(
    AUTH_PATHS.forgotPassword,
    {
      schema: {
        tags,
        summary: 'E-mail a password reset link (same answer for unknown addresses)',
        body: forgotPasswordRequest,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await auth.forgotPassword(request, request.body);
      return SUCCESS;
    },
  );

  app.post(
    AUTH_PATHS.resetPassword,
    {
      schema: {
        tags,
        summary: 'Set a new password from a reset link; ends every session',
        body: resetPasswordRequest,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await auth.resetPassword(request, request.body);
      return SUCCESS;
    },
  );
};

/** All-roles base: calls any signed-in user makes. */
export const authAllRoutes: FastifyPluginAsyncZod = async (app) => {
  const auth = new AuthService(app);
  const tags = ['auth'];

  app.post(
    AUTH_PATHS.signOut,
    { schema: { tags, summary: 'Sign out this browser', response: { 200: successResponse } } },
    async (request, reply) => {
      await auth.signOut(request);
      clearSessionCookie(reply, app.config);
      reply.clearCookie(COUPON_COOKIE, { path: '/' });
      return SUCCESS;
    },
  );

  app.post(
    AUTH_PATHS.verifyEmail,
    {
      schema: {
        tags,
        summary:
          'Verify the e-mail address with the challenge from the link; renews the session cookie',
        body: verifyEmailRequest,
        response: { 200: authUserResponse },
      },
    },
    async (request, reply) => {
      const { user, token } = await auth.verifyEmail(request, request.body.challenge);
      if (token) {
        setSessionCookie(reply, app.config, token);
        // §4 "became verified" makes every page of the user ask for it again: the event
        // follows the answer, so this browser has the renewed cookie before its tabs ask.
        afterAnswer(reply, () => void publishUserUpdated(app, user));
      }
      return { user: presentAuthUser(user) };
    },
  );

  app.post(
    AUTH_PATHS.resendVerification,
    {
      schema: {
        tags,
        summary: 'Send a new verification link',
        body: resendVerificationRequest.optional(),
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await auth.resendVerification(request, request.body?.locale);
      return SUCCESS;
    },
  );

  app.post(
    AUTH_PATHS.setPassword,
    {
      schema: {
        tags,
        summary: 'Set a password with the challenge from the link',
        body: setPasswordRequest,
        response: { 200: successResponse },
      },
    },
    async (request, reply) => {
      setSessionCookie(reply, app.config, await auth.setPassword(request, request.body));
      return SUCCESS;
    },
  );
};

/** Account base: the signed-in user (§7 account users/get-auth-user). */
export const accountUserRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    AUTH_PATHS.authUser,
    {
      schema: {
        tags: ['account'],
        summary: 'The signed-in user',
        response: { 200: authUserResponse },
      },
    },
    async (request) => ({ user: presentAuthUser(requireAuth(request).user) }),
  );
};

/** Dashboard base: the signed-in staff member (§7 admin users/get-auth-user). */
export const dashboardUserRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    AUTH_PATHS.authUser,
    {
      schema: {
        tags: ['dashboard'],
        summary: 'The signed-in staff member',
        response: { 200: authUserResponse },
      },
    },
    async (request) => ({ user: presentAuthUser(requireRole(request, STAFF_ROLES).user) }),
  );
};
