import type { FastifyReply } from 'fastify';
import { authEndpoints, TWO_FACTOR_REQUIRED } from '#shared/contracts/auth.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { clearSessionCookie, setSessionCookie } from './auth-plugin.ts';
import { AuthService, type SignedIn, type SignInOutcome } from './auth-service.ts';
import { setDeviceCookie } from './device-cookie.ts';
import { TwoFactorService } from './two-factor/two-factor-service.ts';
import { publishUserUpdated } from './user-events.ts';
import { presentAuthUser } from './user-presenter.ts';

const SUCCESS = { success: true } as const;
/** Set by the order pages (billing); signing out forgets it with the session (§4 reaction 1). */
const COUPON_COOKIE = 'coupon';

/**
 * The answer of a sign-in that made a session (password, second step, social, passkey,
 * sign-up): the session cookie, this browser's device cookie for the account, and the user.
 */
export function signedIn(app: App, reply: FastifyReply, result: SignedIn) {
  setSessionCookie(reply, app.config, result.token);
  setDeviceCookie(reply, app, result.user.id);
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

/** Sign-up, sign-in, sign-out, verification and the password flows (shared/contracts/auth.ts). */
export function identityRoutes(app: App): Route[] {
  const identity = new AuthService(app, new TwoFactorService(app));
  const endpoints = authEndpoints;

  return [
    route(endpoints.signUp, async ({ request, reply, body }) =>
      signedIn(app, reply, await identity.signUp(request, body)),
    ),
    route(endpoints.signIn, async ({ request, reply, body }) =>
      signInAnswer(app, reply, await identity.signIn(request, body)),
    ),
    route(endpoints.signInTwoFactor, async ({ request, reply, body }) =>
      signedIn(app, reply, await identity.signInTwoFactor(request, body)),
    ),
    route(endpoints.forgotPassword, async ({ request, body }) => {
      await identity.forgotPassword(request, body);
      return SUCCESS;
    }),
    route(endpoints.resetPassword, async ({ request, body }) => {
      await identity.resetPassword(request, body);
      return SUCCESS;
    }),
    route(endpoints.signOut, async ({ request, reply }) => {
      await identity.signOut(request);
      clearSessionCookie(reply, app.config);
      reply.clearCookie(COUPON_COOKIE, { path: '/' });
      return SUCCESS;
    }),
    route(endpoints.verifyEmail, async ({ request, reply, auth, body }) => {
      const { user, token } = await identity.verifyEmail(request, auth, body.challenge);
      if (token) {
        setSessionCookie(reply, app.config, token);
        // §4 "became verified" makes every page of the user ask for it again: the event
        // follows the answer, so this browser has the renewed cookie before its tabs ask.
        afterAnswer(reply, () => void publishUserUpdated(app, user));
      }
      return { user: presentAuthUser(user) };
    }),
    route(endpoints.resendVerification, async ({ request, auth, body }) => {
      await identity.resendVerification(request, auth.user, body?.locale);
      return SUCCESS;
    }),
    route(endpoints.setPassword, async ({ request, reply, auth, body }) => {
      setSessionCookie(reply, app.config, await identity.setPassword(request, auth, body));
      return SUCCESS;
    }),
    route(endpoints.getAuthUser, ({ auth }) => ({ user: presentAuthUser(auth.user) })),
    route(endpoints.getStaffUser, ({ auth }) => ({ user: presentAuthUser(auth.user) })),
  ];
}
