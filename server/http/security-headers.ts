import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

// Strict defaults: no inline scripts anywhere (the SPA's runtime configuration travels as a
// JSON data block, which CSP does not execute), frames denied, HSTS only when served over
// HTTPS, and no referrer beyond our origin.

/**
 * The page a sign-in popup comes back to from the provider: its opener reads it, so it
 * must stay in the opener's browsing context group (no isolating opener policy).
 */
export const POPUP_RETURN_PAGE = /^\/[a-z]{2}\/oauth\/callback(?:[/?#]|$)/;

function helmetOptions(https: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        upgradeInsecureRequests: https ? [] : null,
      },
    },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    // Our pages open the Google and Apple sign-in in a popup and must keep their handle on
    // it (§4); `same-origin` would cut it the moment the popup leaves for the provider.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  };
}

/**
 * Powerful browser features our pages never use are off for them and for anything they might
 * embed: sensors, camera and microphone, payment handlers (cards go through our form or the
 * provider's own page), devices, and interest-based ad cohorts. Passkeys are WebAuthn, so
 * creating and using a credential stays allowed, on our own origin only.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'bluetooth=()',
  'browsing-topics=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'idle-detection=()',
  'interest-cohort=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'serial=()',
  'usb=()',
  'publickey-credentials-create=(self)',
  'publickey-credentials-get=(self)',
].join(', ');

/**
 * The headers helmet sets, and the permissions policy (which helmet leaves out), worked out
 * once. Our policy has no per-request part (no nonces), and helmet's middleware would
 * otherwise re-parse the policy on every request (a tenth of a bare request's cost under
 * load, by profile).
 */
export function securityHeaderValues(https: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  const collector = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(helmetOptions(https))(
    {} as IncomingMessage,
    collector as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  headers['permissions-policy'] = PERMISSIONS_POLICY;
  return headers;
}

/**
 * The API's answers hold personal data (the account, the dashboard, sign-in) or depend on who
 * asks, so no browser or shared cache may keep one unless its route says otherwise: a route
 * that is cacheable on purpose sets its own Cache-Control, which replaces this one. The
 * site's pages, files and media outside /api/ set their own.
 */
function isApiAnswer(request: FastifyRequest): boolean {
  return (request.routeOptions.url ?? request.url).startsWith('/api/');
}

export const securityHeaders = fp(
  async (app: FastifyInstance) => {
    const headers = securityHeaderValues(app.config.appUrl.startsWith('https://'));
    const apiHeaders = { ...headers, 'cache-control': 'no-store' };
    // Set as the request arrives rather than as the answer leaves, so it costs one hook.
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(isApiAnswer(request) ? apiHeaders : headers);
      done();
    });
  },
  { name: 'security-headers' },
);
