import { billingEndpoints } from '#shared/contracts/billing.ts';
import { AppError } from '../../http/app-error.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { isAppStoreGateway } from '../../platform/payments/appstore/appstore-gateway.ts';
import { GatewayRequestError, GatewayUnavailable } from '../../platform/payments/gateway.ts';
import { applyAnswer } from './gateway-events.ts';
import { customerRefFor } from './gateway-refs.ts';

/** The App Store gateway, or 404 while it is off. */
function appStore(app: App) {
  const gateway = app.payments.get('appstore');
  if (!isAppStoreGateway(gateway)) throw new AppError('not_found');
  return gateway;
}

/**
 * What the mobile app needs of us for in-app purchases (service 4): the customer's
 * appAccountToken, which it hands to StoreKit so Apple's notifications name our user, and
 * "restore purchases", which takes the app's signed transactions when a notification was
 * lost. A purchase made without our token (before sign-in) names no account of ours: it is
 * refused rather than given to whoever presents it.
 */
export function appStoreRoutes(app: App): Route[] {
  const e = billingEndpoints;
  return [
    route(e.appStoreAccountToken, async ({ auth }) => ({
      app_account_token: await customerRefFor(app, appStore(app), auth.user),
    })),
    route(e.appStoreRestore, async ({ auth, body }) => {
      const gateway = appStore(app);
      const appAccountToken = await customerRefFor(app, gateway, auth.user);
      let outcome: Awaited<ReturnType<typeof gateway.restorePurchases>>;
      try {
        outcome = await gateway.restorePurchases({
          appAccountToken,
          signedTransactions: body.signed_transactions,
        });
      } catch (error) {
        // A forged or foreign batch is the app's mistake; Apple out of reach, a retry later.
        if (error instanceof GatewayRequestError) throw new AppError('bad_request');
        if (error instanceof GatewayUnavailable) throw new AppError('unavailable');
        throw error;
      }
      for (const restored of outcome.restored) await applyAnswer(app, gateway, restored);
      return {
        restored: outcome.restored.map(({ subscription }) => ({
          original_transaction_id: subscription.ref,
          status: subscription.status,
        })),
        refused: outcome.refused.map(({ originalTransactionId, reason }) => ({
          original_transaction_id: originalTransactionId,
          reason,
        })),
      };
    }),
  ];
}
