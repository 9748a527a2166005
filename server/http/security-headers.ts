import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// Strict defaults: no inline scripts anywhere (the SPA's runtime configuration travels as a
// JSON data block, which CSP does not execute), frames denied, HSTS only when served over
// HTTPS, and no referrer beyond our origin.

/**
 * The page a sign-in popup comes back to from the provider: its opener reads it, so it
 * must stay in the opener's browsing context group (no isolating opener policy).
 */
export const POPUP_RETURN_PAGE = /^\/[a-z]{2}\/oauth\/callback(?:[/?#]|$)/;
export const securityHeaders = fp(
  async (app: FastifyInstance) => {
    const https = app.config.appUrl.startsWith('https://');
    await app.register(helmet, {
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
    });
  },
  { name: 'security-headers' },
);
