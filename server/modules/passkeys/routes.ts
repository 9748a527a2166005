import { passkeyEndpoints } from '#shared/contracts/passkeys.ts';
import { ownAccountRoutes, type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { AuthService } from '../identity/auth-service.ts';
import { signedIn } from '../identity/routes.ts';
import { TwoFactorService } from '../identity/two-factor/two-factor-service.ts';
import { setChallengeCookie, takeChallengeCookie } from './challenge-cookie.ts';
import { PasskeySignIn } from './passkey-sign-in.ts';
import { PasskeysService } from './passkeys-service.ts';

const SUCCESS = { success: true } as const;

/** Passkeys (shared/contracts/passkeys.ts): the own account's, and signing in with one. */
export function passkeyRoutes(app: App): Route[] {
  const passkeys = new PasskeysService(app);
  const signIn = new PasskeySignIn(app, new AuthService(app, new TwoFactorService(app)));
  const e = passkeyEndpoints;

  return [
    ...ownAccountRoutes(e.list, ({ auth }) => passkeys.list(auth.user)),
    ...ownAccountRoutes(e.registrationOptions, async ({ request, reply, auth, body }) => {
      const started = await passkeys.registrationOptions(request, auth.user, body.password);
      setChallengeCookie(reply, app.config, 'register', started.challengeId);
      reply.header('cache-control', 'no-store');
      return { options: started.options };
    }),
    ...ownAccountRoutes(e.register, async ({ request, reply, auth, body }) => {
      const challengeId = takeChallengeCookie(request, reply, app.config, 'register');
      return { passkey: await passkeys.register(request, auth.user, challengeId, body) };
    }),
    ...ownAccountRoutes(e.rename, async ({ request, auth, body }) => ({
      passkey: await passkeys.rename(request, auth.user, body.id, body.name),
    })),
    ...ownAccountRoutes(e.remove, async ({ request, auth, body }) => {
      await passkeys.remove(request, auth.user, body.id, body.password);
      return SUCCESS;
    }),
    route(e.signInOptions, async ({ request, reply }) => {
      const started = await signIn.options(request);
      setChallengeCookie(reply, app.config, 'sign-in', started.challengeId);
      reply.header('cache-control', 'no-store');
      return { options: started.options };
    }),
    route(e.signIn, async ({ request, reply, body }) => {
      const challengeId = takeChallengeCookie(request, reply, app.config, 'sign-in');
      return signedIn(app, reply, await signIn.signIn(request, challengeId, body.credential));
    }),
  ];
}
