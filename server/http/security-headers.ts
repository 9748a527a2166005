import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
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
 * The headers helmet sets, worked out once. Our policy has no per-request part (no nonces),
 * and helmet's middleware would otherwise re-parse the policy on every request (a tenth of
 * a bare request's cost under load, by profile).
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
  return headers;
}

export const securityHeaders = fp(
  async (app: FastifyInstance) => {
    const headers = securityHeaderValues(app.config.appUrl.startsWith('https://'));
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: 'security-headers' },
);
