import { randomUUID } from 'node:crypto';
import type { AppStoreSettings } from '#shared/billing/gateway-settings.ts';
import {
  type GatewayDeps,
  GatewayRequestError,
  NOT_ON_ORDER_PAGE,
  type PaymentGateway,
} from '../gateway.ts';
import { AppStoreApi } from './appstore-api.ts';
import type { AppStoreContext } from './appstore-context.ts';
import { managedInAppStore } from './managed-in-app-store.ts';
import { verifyNotification } from './notifications.ts';
import {
  type RestoreOutcome,
  type RestorePurchasesInput,
  restorePurchases,
} from './restore-purchases.ts';
import { createVerifier } from './signed-data.ts';
import { subscriptionSnapshot, transactionSnapshots } from './snapshots.ts';
import { readSubscription, readTransaction } from './subscription-reads.ts';

export type {
  RefusedPurchase,
  RestoredPurchase,
  RestoreOutcome,
  RestorePurchasesInput,
} from './restore-purchases.ts';

/** The App Store gateway: a PaymentGateway that can also restore the app's purchases. */
export interface AppStoreGateway extends PaymentGateway {
  readonly name: 'appstore';
  /**
   * Verifies the signed transactions the app sends (any forged one: GatewayRequestError
   * invalid_request, nothing restored), keeps the subscriptions bought with this user's
   * app account token, reads each from the App Store Server API and answers its snapshots
   * to apply; the others are listed as refused.
   */
  restorePurchases(input: RestorePurchasesInput): Promise<RestoreOutcome>;
}

export function isAppStoreGateway(gateway: PaymentGateway | undefined): gateway is AppStoreGateway {
  return gateway?.name === 'appstore' && 'restorePurchases' in gateway;
}

/**
 * App Store in-app purchases (service 4). The app buys with StoreKit, passing the user's
 * app account token (ensureCustomer makes it); Apple tells us of every change by a signed
 * notification, which we verify up to the operator's Apple root and answer with the
 * subscription read back from the App Store Server API. Nothing is sold or managed from
 * our pages. Nothing here touches the network until a call needs it.
 */
export function createAppStoreGateway(
  settings: AppStoreSettings,
  deps: GatewayDeps,
): AppStoreGateway {
  const context: AppStoreContext = {
    api: new AppStoreApi(settings),
    verifier: createVerifier(settings),
    log: deps.log,
    now: () => new Date(),
  };
  return {
    name: 'appstore',
    serviceId: 4,
    paymentMethodType: 'in_app',
    checkoutStyle: NOT_ON_ORDER_PAGE,
    cards: null,
    // A new token per user, kept by the billing core (gateway_customers): the app hands it to
    // StoreKit with each purchase, and every transaction then names our user by it.
    ensureCustomer: async () => randomUUID(),
    // Products are made in App Store Connect; the catalog holds their App Store ids.
    ensurePrice: async (price) => {
      if (!price.ref) {
        throw new GatewayRequestError(
          'invalid_request',
          `product ${price.productId} has no App Store product id`,
        );
      }
      return price.ref;
    },
    startSubscription: async () => managedInAppStore('buy'),
    previewChange: async () => managedInAppStore('change'),
    changePlan: async () => managedInAppStore('change'),
    cancel: async () => managedInAppStore('cancel'),
    resume: async () => managedInAppStore('cancel'),
    pause: async () => managedInAppStore('pause'),
    unpause: async () => managedInAppStore('pause'),
    payInvoice: async () => managedInAppStore('pay'),
    endForNonPayment: async () => managedInAppStore('pay'),
    refund: async () => managedInAppStore('refund'),
    fetchSubscription: async (originalTransactionId) => {
      const readAt = context.now();
      const state = await readSubscription(context, originalTransactionId);
      return state && subscriptionSnapshot(state, readAt);
    },
    fetchInvoice: async (transactionId) => {
      const readAt = context.now();
      const transaction = await readTransaction(context, transactionId);
      return transaction && transactionSnapshots(transaction, readAt).invoice;
    },
    verifyWebhook: (rawBody) => verifyNotification(context, rawBody),
    restorePurchases: (input) => restorePurchases(context, input),
  };
}
