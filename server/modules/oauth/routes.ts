import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signInResponse } from '#shared/contracts/auth.ts';
import { pageOf } from '#shared/contracts/list.ts';
import {
  OAUTH_PATHS,
  type OAuthProviderParams,
  oauthAuthorizeQuery,
  oauthLoginRequest,
  oauthProviderAnswer,
  oauthProviderParams,
  oauthProvidersQuery,
  oauthProvidersResponse,
  oauthTokenRequest,
  oauthTokenResponse,
} from '#shared/contracts/oauth.ts';
import { StateCookie } from '../../platform/oauth/state-cookie.ts';
import { signInAnswer } from '../auth/routes.ts';
import { callbackRedirect, type ProviderAnswer } from './callback-redirect.ts';
import { OAuthService } from './oauth-service.ts';

const FORM = 'application/x-www-form-urlencoded';

// Every step of the popup's trip (here, the provider, back here, the app page) must leave it
// in its opener's browsing context group, or the opener loses its handle on it (§4 popup).
const keepOpener = (reply: FastifyReply) =>
  reply.header('cross-origin-opener-policy', 'unsafe-none');

/** Public base: social sign-in with Google and Apple (shared/contracts/oauth.ts). */
export const oauthRoutes: FastifyPluginAsyncZod = async (app) => {
  const oauth = new OAuthService(app);
  const cookie = new StateCookie(app.config, app.oauthStateBox);
  const tags = ['oauth'];

  app.get(
    OAUTH_PATHS.providers,
    {
      schema: {
        tags,
        summary: 'The social sign-in providers switched on',
        querystring: oauthProvidersQuery,
        response: { 200: oauthProvidersResponse },
      },
    },
    // `client_id` (an OAuth client of ours asking) changes nothing until such clients exist.
    async (request) => pageOf(await oauth.list(), request.query),
  );

  app.get(
    OAUTH_PATHS.authorize,
    {
      schema: {
        tags,
        summary: "Remember this browser's sign-in and redirect to the provider",
        params: oauthProviderParams,
        querystring: oauthAuthorizeQuery,
      },
    },
    async (request, reply) => {
      const provider = await oauth.provider(request.params.provider);
      const { url, state } = await oauth.authorize(provider, request.query.lang);
      cookie.write(reply, state, provider.responseMode);
      return keepOpener(reply).redirect(url.href, 302);
    },
  );

  const forward = async (
    request: FastifyRequest<{ Params: OAuthProviderParams }>,
    reply: FastifyReply,
    answer: ProviderAnswer,
  ) => {
    const provider = await oauth.provider(request.params.provider);
    const { location, state } = callbackRedirect(
      provider,
      answer,
      cookie.read(request),
      app.config.defaultLocale,
    );
    if (state) cookie.write(reply, state, provider.responseMode);
    return keepOpener(reply).redirect(location, 303);
  };

  app.get(
    OAUTH_PATHS.callback,
    {
      schema: {
        tags,
        summary: 'Where the provider redirects back; forwards to the app page',
        params: oauthProviderParams,
        querystring: oauthProviderAnswer,
      },
    },
    (request, reply) => forward(request, reply, request.query),
  );

  // Apple's response_mode=form_post: a cross-site form POST. The parser lives in this scope
  // only, so no other route accepts form bodies.
  const formPostRoutes: FastifyPluginAsyncZod = async (formPost) => {
    formPost.addContentTypeParser(
      FORM,
      { parseAs: 'string', bodyLimit: 16_384 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    formPost.post(
      OAUTH_PATHS.callback,
      {
        // It only forwards code and state to the app page; the state is checked at token.
        config: { crossSitePost: true },
        schema: {
          tags,
          summary: 'Where Apple posts its answer (form_post); forwards to the app page',
          params: oauthProviderParams,
          body: oauthProviderAnswer,
        },
      },
      (request, reply) => forward(request, reply, request.body),
    );
  };
  await app.register(formPostRoutes);

  app.post(
    OAUTH_PATHS.token,
    {
      schema: {
        tags,
        summary: 'Exchange the code for a one-time sign-in token',
        body: oauthTokenRequest,
        response: { 200: oauthTokenResponse },
      },
    },
    async (request, reply) => {
      const state = cookie.read(request);
      // One attempt per authorization: whatever happens next, this state is spent.
      cookie.clear(reply);
      return { token: await oauth.token(request, request.body, state) };
    },
  );

  app.post(
    OAUTH_PATHS.login,
    {
      schema: {
        tags,
        summary: 'Sign in with the one-time token; answers code 102 when 2FA is needed',
        body: oauthLoginRequest,
        response: { 200: signInResponse },
      },
    },
    async (request, reply) => signInAnswer(app, reply, await oauth.login(request, request.body)),
  );
};
