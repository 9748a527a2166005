import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentSubscriptionResponse } from '#shared/contracts/current-subscription.ts';
import { requireAuth } from '../auth/auth-plugin.ts';

/**
 * GET /subscriptions/current (account base): what the browser's guards and menus need (§2).
 * Subscriptions are created by the billing module, which does not exist yet, so today every
 * account truly has none; billing replaces the body of this handler with its lookup.
 */
export const currentSubscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/subscriptions/current',
    {
      schema: {
        tags: ['account'],
        summary: 'The current subscription, if any',
        response: { 200: currentSubscriptionResponse },
      },
    },
    async (request) => {
      requireAuth(request);
      return { subscription: null, last_invoice_finalizing: false };
    },
  );
};
