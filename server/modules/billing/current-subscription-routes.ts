import { currentSubscriptionEndpoint } from '#shared/contracts/current-subscription.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { currentSubscriptionState } from './current-subscription.ts';
import { subscriptionValue } from './subscription-actions.ts';

/**
 * §3 the current subscription and the last-invoice-finalizing flag, as the browser's guards
 * and menus read them (§2). Served with the billing flag off too: then nobody has one.
 */
export function currentSubscriptionRoutes(app: App): Route[] {
  return [
    route(currentSubscriptionEndpoint, async ({ auth }) => {
      const state = app.config.features.has('billing')
        ? await currentSubscriptionState(app.db, auth.user.id)
        : null;
      if (!state) return { subscription: null, last_invoice_finalizing: false };
      return {
        subscription: { ...subscriptionValue(state), exists: true },
        last_invoice_finalizing: state.lastInvoiceFinalizing,
      };
    }),
  ];
}
