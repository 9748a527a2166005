import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type Provider from 'oidc-provider';
import { OIDC_PREFIX } from '#shared/contracts/oidc.ts';
import { pickLang } from '#shared/locales.ts';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { seedDemoClients } from './demo-clients.ts';
import { deleteExpiredModels } from './oidc-adapter.ts';
import { watchProviderEvents } from './oidc-events.ts';
import { OidcHost } from './oidc-host.ts';
import { rotateSigningKey } from './oidc-keys.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The product as an OpenID provider for its apps (issue 24). */
    oidc: OidcHost;
  }
}

const MINUTE = 60_000;
const KEY_JOB = 'oidc-keys';

/**
 * Per address: a device polling every five seconds, many behind one router, stays well
 * inside; codes and grants cannot be ground through.
 */
const LIMITS: Record<string, { limit: number; windowMs: number }> = {
  [`${OIDC_PREFIX}/token`]: { limit: 300, windowMs: MINUTE },
  [`${OIDC_PREFIX}/device/auth`]: { limit: 30, windowMs: MINUTE },
  [`${OIDC_PREFIX}/auth`]: { limit: 120, windowMs: MINUTE },
  [`${OIDC_PREFIX}/token/introspection`]: { limit: 600, windowMs: MINUTE },
};

/**
 * Mounts oidc-provider (a Koa app) in our server: every request below /oidc and the
 * discovery document go to it as they came, body unread. Our hooks have run by then (request
 * id, rate limits); the security headers are copied onto the raw response, which the
 * provider writes itself.
 */
export const oidcPlugin = fp(
  async (app: FastifyInstance) => {
    const host = new OidcHost(
      {
        db: app.db,
        config: app.config,
        clientBox: app.oidcClientBox,
        keyBox: app.oidcKeyBox,
        cookieKeys: [app.oidcCookieKey],
        log: app.log,
        proxy: Boolean(app.config.trustProxy),
        onProvider: (provider: Provider) => watchProviderEvents(app as App, provider),
      },
      app.config.appUrl,
    );
    app.decorate('oidc', host);

    // Daily, once across processes: the signing key replaced when due (each process picks
    // up the new set within a minute), and what has expired cleared away.
    await app.queue.work(KEY_JOB, async () => {
      const kid = await rotateSigningKey(app.db, app.oidcKeyBox);
      if (kid) {
        host.invalidate();
        await recordAudit(app.db, null, {
          action: 'oidc.signing_key_rotated',
          actorId: null,
          subjectType: 'oidc_signing_key',
          subjectId: kid,
        });
      }
      await deleteExpiredModels(app.db);
    });
    await app.queue.schedule(KEY_JOB, '23 4 * * *');
    if (app.config.seedDemo) {
      app.addHook('onReady', async () => {
        await seedDemoClients(app as App).catch((error: unknown) =>
          app.log.error({ err: error }, 'demo OAuth clients could not be seeded'),
        );
      });
    }

    const hand = async (request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split('?', 1)[0] ?? '';
      const rule = LIMITS[path];
      if (rule && request.method === 'POST') {
        await app.rateLimiter.consume([{ name: `oidc:${path}`, key: request.ip, ...rule }]);
      }
      const provider = await host.current();
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      reply.hijack();
      await provider.callback()(request.raw, reply.raw);
    };

    await app.register(async (scope) => {
      // The provider reads its own bodies (forms, mostly): nothing here may consume them.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
      const options = { schema: { hide: true }, config: { access: 'public' as const } };
      scope.route({ method: ['GET', 'POST'], url: `${OIDC_PREFIX}/*`, ...options, handler: hand });
      scope.get('/.well-known/openid-configuration', options, hand);
      // The address a TV or router shows (RFC 8628 verification_uri): our page, in the
      // person's language, with the code carried along.
      scope.get<{ Querystring: { user_code?: string } }>('/device', options, (request, reply) => {
        const lang = pickLang(
          request.headers['accept-language'],
          app.config.locales,
          app.config.defaultLocale,
        );
        const code = request.query.user_code;
        if (code !== undefined && (typeof code !== 'string' || code.length > 32)) {
          throw new AppError('not_found');
        }
        const query = code ? `?user_code=${encodeURIComponent(code)}` : '';
        return reply.redirect(`/${lang}/device${query}`, 303);
      });
    });
  },
  { name: 'oidc', dependencies: ['database', 'queue', 'crypto', 'rate-limit'] },
);
