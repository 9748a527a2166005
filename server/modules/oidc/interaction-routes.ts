import type { FastifyReply, FastifyRequest } from 'fastify';
import type { InteractionResults } from 'oidc-provider';
import { interactionPath, oidcEndpoints } from '#shared/contracts/oidc.ts';
import { pickLang } from '#shared/locales.ts';
import { AppError } from '../../http/app-error.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { ActiveSession } from '../identity/sessions.ts';
import { FIRST_PARTY } from './oidc-clients.ts';

type Details = Awaited<ReturnType<import('oidc-provider').default['interactionDetails']>>;

/** The scopes a consent would add: what the app asks for that its grant lacks. */
function missingScopes(details: Details): string[] {
  const missing = details.prompt.details.missingOIDCScope;
  return Array.isArray(missing) ? missing.map(String) : [];
}

/**
 * Our side of the provider's interactions (shared/contracts/oidc.ts). The provider's cookie,
 * bound to the interaction's path, proves the browser is the one that started it, so a
 * link to someone else's interaction finishes nothing.
 */
export function oidcInteractionRoutes(app: App): Route[] {
  const e = oidcEndpoints;

  const details = async (request: FastifyRequest, reply: FastifyReply, uid: string) => {
    const provider = await app.oidc.current();
    const found = await provider.interactionDetails(request.raw, reply.raw).catch(() => {
      throw new AppError('not_found');
    });
    if (found.uid !== uid) throw new AppError('not_found');
    const client = await provider.Client.find(String(found.params.client_id));
    if (!client) throw new AppError('not_found');
    return { provider, found, client };
  };

  /** Grants what the app asked for, for this person: the consent, given or implied. */
  const grantFor = async (
    interaction: Awaited<ReturnType<typeof details>>,
    auth: ActiveSession,
  ): Promise<InteractionResults> => {
    const { provider, found } = interaction;
    const accountId = String(auth.user.id);
    const grant =
      (found.grantId && (await provider.Grant.find(found.grantId))) ||
      new provider.Grant({ accountId, clientId: String(found.params.client_id) });
    const scopes = missingScopes(found);
    if (scopes.length) grant.addOIDCScope(scopes.join(' '));
    const claims = found.prompt.details.missingOIDCClaims;
    if (Array.isArray(claims) && claims.length) grant.addOIDCClaims(claims.map(String));
    return { consent: { grantId: await grant.save() } };
  };

  const finish = async (
    interaction: Awaited<ReturnType<typeof details>>,
    request: FastifyRequest,
    reply: FastifyReply,
    result: InteractionResults,
  ) =>
    interaction.provider.interactionResult(request.raw, reply.raw, result, {
      mergeWithLastSubmission: false,
    });

  const loginOf = (auth: ActiveSession): InteractionResults => ({
    login: {
      accountId: String(auth.user.id),
      ts: Math.floor(auth.session.createdAt.getTime() / 1000),
      amr: auth.user.twoFactorConfirmedAt ? ['pwd', 'otp'] : ['pwd'],
    },
  });

  return [
    route(e.interaction, async ({ request, reply, params, auth }) => {
      const interaction = await details(request, reply, params.uid);
      const { found, client } = interaction;
      const lang = pickLang(
        [found.params.ui_locales, request.headers['accept-language']].filter(Boolean).join(','),
        app.config.locales,
        app.config.defaultLocale,
      );
      const here = `${app.config.appUrl}${interactionPath(params.uid)}`;
      if (!auth || auth.user.deleteAt) {
        return reply.redirect(`/${lang}/signin?redirect_url=${encodeURIComponent(here)}`, 303);
      }
      if (found.prompt.name === 'login') {
        return reply.redirect(await finish(interaction, request, reply, loginOf(auth)), 303);
      }
      if (found.session?.accountId !== String(auth.user.id)) {
        // Signed in as someone else since: the provider asks who it is again.
        return reply.redirect(await finish(interaction, request, reply, loginOf(auth)), 303);
      }
      if (client.metadata()[FIRST_PARTY] === true) {
        const result = await grantFor(interaction, auth);
        return reply.redirect(await finish(interaction, request, reply, result), 303);
      }
      return reply.redirect(`/${lang}/oauth/consent/${encodeURIComponent(params.uid)}`, 303);
    }),
    route(e.interactionDetails, async ({ request, reply, params, auth }) => {
      const { found, client } = await details(request, reply, params.uid);
      if (found.session?.accountId !== String(auth.user.id)) throw new AppError('not_found');
      const metadata = client.metadata();
      return {
        client: {
          name: client.clientName ?? client.clientId,
          logo_uri: typeof metadata.logo_uri === 'string' ? metadata.logo_uri : null,
          first_party: metadata[FIRST_PARTY] === true,
        },
        scopes: missingScopes(found),
        email: auth.user.email,
      };
    }),
    route(e.confirm, async ({ request, reply, params, auth }) => {
      const interaction = await details(request, reply, params.uid);
      const { found } = interaction;
      if (found.prompt.name !== 'consent' || found.session?.accountId !== String(auth.user.id)) {
        throw new AppError('not_found');
      }
      const result = await grantFor(interaction, auth);
      await recordAudit(app.db, request, {
        action: 'oidc.consent_given',
        actorId: auth.user.id,
        subjectType: 'oauth_client',
        subjectId: String(found.params.client_id),
        data: { scopes: missingScopes(found) },
      });
      return { redirect_to: await finish(interaction, request, reply, result) };
    }),
    route(e.abort, async ({ request, reply, params, auth }) => {
      const interaction = await details(request, reply, params.uid);
      const { found } = interaction;
      await recordAudit(app.db, request, {
        action: 'oidc.consent_refused',
        actorId: auth.user.id,
        subjectType: 'oauth_client',
        subjectId: String(found.params.client_id),
      });
      const result = {
        error: 'access_denied',
        error_description: 'The person refused the app.',
      };
      return { redirect_to: await finish(interaction, request, reply, result) };
    }),
  ];
}
