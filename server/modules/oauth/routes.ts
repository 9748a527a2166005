import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageOf } from '#shared/contracts/list.ts';
import { type OAuthProviderParams, oauthEndpoints } from '#shared/contracts/oauth.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { StateCookie } from '../../platform/oauth/state-cookie.ts';
import { AuthService } from '../identity/auth-service.ts';
import { signInAnswer } from '../identity/routes.ts';
import { TwoFactorService } from '../identity/two-factor/two-factor-service.ts';
import { callbackRedirect, type ProviderAnswer } from './callback-redirect.ts';
import { OAuthService } from './oauth-service.ts';

const FORM = 'application/x-www-form-urlencoded';

// Every step of the popup's trip (here, the provider, back here, the app page) must leave it
// in its opener's browsing context group, or the opener loses its handle on it (§4 popup).
const keepOpener = (reply: FastifyReply) =>
  reply.header('cross-origin-opener-policy', 'unsafe-none');

/** Social sign-in with Google and Apple (shared/contracts/oauth.ts). */
export function oauthRoutes(app: App): Route[] {
  const oauth = new OAuthService(app, new AuthService(app, new TwoFactorService(app)));
  const cookie = new StateCookie(app.config, app.oauthStateBox);
  const e = oauthEndpoints;

  const forward = async (
    request: FastifyRequest,
    reply: FastifyReply,
    params: OAuthProviderParams,
    answer: ProviderAnswer,
  ) => {
    const provider = await oauth.provider(params.provider);
    const { location, state } = callbackRedirect(
      provider,
      answer,
      cookie.read(request),
      app.config.defaultLocale,
    );
    if (state) cookie.write(reply, state, provider.responseMode);
    return keepOpener(reply).redirect(location, 303);
  };

  return [
    route(e.providers, async ({ query }) => pageOf(await oauth.list(), query)),
    route(e.authorize, async ({ reply, params, query }) => {
      const provider = await oauth.provider(params.provider);
      const { url, state } = await oauth.authorize(provider, query.lang);
      cookie.write(reply, state, provider.responseMode);
      return keepOpener(reply).redirect(url.href, 302);
    }),
    route(e.callback, ({ request, reply, params, query }) =>
      forward(request, reply, params, query),
    ),
    // Apple's form_post: a cross-site form POST that only forwards code and state to the app
    // page (the state is checked at token). The form parser lives in this route's scope only,
    // so no other route accepts form bodies.
    route(
      e.callbackFormPost,
      ({ request, reply, params, body }) => forward(request, reply, params, body),
      {
        crossSitePost: true,
        scope: (scope) =>
          scope.addContentTypeParser(
            FORM,
            { parseAs: 'string', bodyLimit: 16_384 },
            (_request, body, done) =>
              done(null, Object.fromEntries(new URLSearchParams(String(body)))),
          ),
      },
    ),
    route(e.token, async ({ request, reply, body }) => {
      const state = cookie.read(request);
      // One attempt per authorization: whatever happens next, this state is spent.
      cookie.clear(reply);
      return { token: await oauth.token(request, body, state) };
    }),
    route(e.login, async ({ request, reply, body }) =>
      signInAnswer(app, reply, await oauth.login(request, body)),
    ),
  ];
}
