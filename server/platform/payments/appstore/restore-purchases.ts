import {
  type GatewayInvoice,
  type GatewayPayment,
  type GatewayRefund,
  GatewayRequestError,
  type GatewaySubscription,
} from '../gateway.ts';
import type { AppStoreContext } from './appstore-context.ts';
import { type AppStoreTransaction, verified } from './signed-data.ts';
import {
  customerOf,
  isSubscription,
  subscriptionSnapshot,
  transactionSnapshots,
} from './snapshots.ts';
import { readSubscription } from './subscription-reads.ts';

// "Restore purchases" in the app: it sends the signed transactions StoreKit holds for the
// Apple ID (Transaction.currentEntitlements, each `jwsRepresentation`), and we take back the
// subscriptions bought with this user's app account token, as Apple shows them now.

export interface RestorePurchasesInput {
  /** The signed-in user's app account token: their `gateway_customers` ref at `appstore`. */
  appAccountToken: string;
  /** JWS transactions as StoreKit gives them to the app. */
  signedTransactions: readonly string[];
}

/** One subscription to apply, as a webhook's snapshots would be (applyAnswer). */
export interface RestoredPurchase {
  subscription: GatewaySubscription;
  invoice: GatewayInvoice;
  payment: GatewayPayment;
  refund?: GatewayRefund;
}

export interface RefusedPurchase {
  originalTransactionId: string;
  /**
   * other_account: bought with another user's token, or none (never handed to this user);
   * not_subscription: not an auto-renewable subscription; unknown_to_apple: the App Store
   * Server API does not show it.
   */
  reason: 'other_account' | 'not_subscription' | 'unknown_to_apple';
}

export interface RestoreOutcome {
  restored: RestoredPurchase[];
  refused: RefusedPurchase[];
}

/** More than any Apple ID holds in one app: a bigger batch is not StoreKit's. */
export const MAX_RESTORED_TRANSACTIONS = 100;

export async function restorePurchases(
  context: AppStoreContext,
  input: RestorePurchasesInput,
): Promise<RestoreOutcome> {
  if (input.signedTransactions.length > MAX_RESTORED_TRANSACTIONS) {
    throw new GatewayRequestError('invalid_request', 'App Store restore: too many transactions');
  }
  const token = input.appAccountToken.toLowerCase();
  // Every one is verified before any is used: a forged one means the caller is not our app.
  const told: AppStoreTransaction[] = [];
  for (const signed of input.signedTransactions) {
    told.push(
      await verified('app', 'transaction', () =>
        context.verifier.verifyAndDecodeTransaction(signed),
      ),
    );
  }
  const bySubscription = new Map<string, AppStoreTransaction[]>();
  for (const transaction of told) {
    const key = transaction.originalTransactionId ?? '';
    bySubscription.set(key, [...(bySubscription.get(key) ?? []), transaction]);
  }
  const outcome: RestoreOutcome = { restored: [], refused: [] };
  for (const [originalTransactionId, transactions] of bySubscription) {
    const refuse = (reason: RefusedPurchase['reason']) =>
      outcome.refused.push({ originalTransactionId, reason });
    if (!originalTransactionId || !transactions.every(isSubscription)) {
      refuse('not_subscription');
      continue;
    }
    if (!transactions.every((transaction) => customerOf(transaction) === token)) {
      refuse('other_account');
      continue;
    }
    const readAt = context.now();
    const state = await readSubscription(context, originalTransactionId);
    if (!state) {
      refuse('unknown_to_apple');
      continue;
    }
    // What Apple holds now decides, not what the app sent.
    if (customerOf(state.transaction) !== token) {
      refuse('other_account');
      continue;
    }
    outcome.restored.push({
      subscription: subscriptionSnapshot(state, readAt),
      ...transactionSnapshots(state.transaction, readAt),
    });
  }
  return outcome;
}
