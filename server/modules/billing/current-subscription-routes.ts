import { currentSubscriptionEndpoint } from '#shared/contracts/current-subscription.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';

/**
 * Subscriptions are created by the billing module, which does not exist yet, so today every
 * account truly has none; billing replaces this handler with its lookup.
 */
export function currentSubscriptionRoutes(): Route[] {
  return [
    route(currentSubscriptionEndpoint, () => ({
      subscription: null,
      last_invoice_finalizing: false,
    })),
  ];
}
