import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { API_BASES } from '#shared/api-bases.ts';
import { AUTH_MESSAGES } from '#shared/contracts/auth.ts';
import { isStaff } from '#shared/roles.ts';
import type { Config } from '../../config.ts';
import { callerOf, refusal } from '../../http/access.ts';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';
import { appCaller, bearerToken } from '../oidc/app-tokens.ts';
import { type ActiveSession, findSession } from './sessions.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A route that takes a cross-site form POST by design (Apple's form_post callback): it
     * cannot carry our header. Such a route must change nothing on its own authority.
     */
    crossSitePost?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in session and user, or null for a visitor. */
    auth: ActiveSession | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The `__Host-` prefix pins the cookie to this exact origin over HTTPS. */
export function sessionCookieName(config: Pick<Config, 'appUrl'>): string {
  return config.appUrl.startsWith('https:') ? '__Host-sid' : 'sid';
}

// A browser ignores a `__Host-` cookie, even one that clears it, unless it is Secure with
// path / and no domain: set and clear must carry the same attributes.
function cookieOptions(config: Pick<Config, 'appUrl'>) {
  return {
    httpOnly: true,
    secure: config.appUrl.startsWith('https:'),
    sameSite: 'lax',
    path: '/',
  } as const;
}

export function setSessionCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(sessionCookieName(config), token, {
    ...cookieOptions(config),
    maxAge: Math.floor(config.sessionMaxMs / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(sessionCookieName(config), cookieOptions(config));
}

/**
 * The origins whose pages may call us: the site's own (APP_URL, scheme included), and the
 * pages passkey ceremonies may run on (WEBAUTHN_ORIGINS: `localhost` for a loopback APP_URL,
 * or other names of the relying party), which call the sign-in and account routes too.
 */
function siteOrigins(config: Pick<Config, 'appUrl' | 'webauthn'>): ReadonlySet<string> {
  return new Set([new URL(config.appUrl).origin, ...(config.webauthn?.origins ?? [])]);
}

/**
 * CSRF: a state-changing call must carry `x-requested-with: fetch`, which a form post or an
 * image cannot send and a cross-site script can only send after a CORS preflight we never
 * grant; and if the browser names an Origin it must be one of ours. Together with SameSite=Lax
 * cookies this is the OWASP "custom request header" defence. The Origin is compared with the
 * configured origins, never with the request's Host: a Host header is the client's to write
 * (a proxy may pass it on unchanged), and a host alone would take an http page of our name
 * for the https site.
 */
function checkCsrf(request: FastifyRequest, origins: ReadonlySet<string>): void {
  if (SAFE_METHODS.has(request.method)) return;
  if (request.headers['x-requested-with'] !== 'fetch') {
    throw new AppError('forbidden', { info: AUTH_MESSAGES.csrf });
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !origins.has(origin)) {
    throw new AppError('forbidden', { info: AUTH_MESSAGES.csrf });
  }
}

const DASHBOARD = `${API_BASES.dashboard}/`;

/** Resolves the session cookie of every API request and guards unsafe methods (CSRF). */
export const authPlugin = fp(
  async (app) => {
    app.decorateRequest('auth', null);
    const origins = siteOrigins(app.config);
    const cookieName = sessionCookieName(app.config);
    app.addHook('onRequest', async (request) => {
      // The route the router matched, not the raw URL: the router decodes the path, so
      // `/%61pi/…` reaches an /api/ route and must meet the same gate. A URL that matched no
      // route (404) runs no handler. Read once: Fastify builds `routeOptions` at each read.
      const { url: route = '', config } = request.routeOptions;
      const access = config?.access;
      const api = route.startsWith('/api/');
      // Files, pages and health checks are open: no session lookup for them.
      if (!api && (access === 'public' || access === 'own-signature')) return;
      // An app of ours with an access token, on a call open to apps (issue 24). A browser
      // never sends that header on its own, so it needs no CSRF check; on any other call the
      // header opens nothing.
      const appScope = config?.endpoint?.appScope;
      const bearer = appScope && bearerToken(request.headers.authorization);
      if (appScope && bearer) {
        request.auth = await appCaller(app as App, bearer, appScope);
        const refused = access && refusal(access, callerOf(request));
        if (refused) throw refused;
        return;
      }
      // A node's calls carry its bearer token, which no other site can make a browser send.
      // Every other route from here on reads the session cookie, API or not (the sandbox's
      // test clock), so its writes meet the CSRF check; a URL that matched none runs nothing.
      const csrfExempt = config?.crossSitePost || access === 'node';
      if (access && !csrfExempt) checkCsrf(request, origins);
      const token = request.cookies[cookieName];
      if (token) {
        const found = await findSession(app.db, app.config, token);
        // A blocked account keeps no access, whatever sessions it still has.
        request.auth = found && !found.user.blockedAt ? found : null;
      }
      // The dashboard base is staff's alone (§6, §7), whatever a route declares.
      if (route.startsWith(DASHBOARD)) {
        if (!request.auth) throw new AppError('unauthenticated');
        if (!isStaff(request.auth.user.role)) throw new AppError('forbidden');
      }
      // Then the route's own declared access (route-access.ts: every route has one), before
      // its body is read or its handler runs. Every route meets this one gate.
      const refused = access && refusal(access, callerOf(request));
      if (refused) throw refused;
    });
  },
  { name: 'auth', dependencies: ['database'] },
);
