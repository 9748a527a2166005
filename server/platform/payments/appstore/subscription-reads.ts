import { GatewayRequestError } from '../gateway.ts';
import { callApple } from './appstore-api.ts';
import type { AppStoreContext } from './appstore-context.ts';
import { type AppStoreTransaction, verified } from './signed-data.ts';
import type { SubscriptionState } from './snapshots.ts';

// Reads of the App Store Server API, verified like everything Apple signs: the truth we build
// snapshots from, whatever a notification or the app said.

async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof GatewayRequestError && error.kind === 'not_found') return null;
    throw error;
  }
}

/** A subscription's status now (Get All Subscription Statuses), null when Apple has none. */
export async function readSubscription(
  context: AppStoreContext,
  originalTransactionId: string,
): Promise<SubscriptionState | null> {
  const answer = await orNull(
    callApple('subscription status', () =>
      context.api.getAllSubscriptionStatuses(originalTransactionId),
    ),
  );
  // The answer holds every subscription of the customer's Apple ID in our app: ours by id.
  const item = answer?.data
    ?.flatMap((group) => group.lastTransactions ?? [])
    .find((last) => last.originalTransactionId === originalTransactionId);
  if (!item?.signedTransactionInfo || item.status === undefined) return null;
  const { signedTransactionInfo, signedRenewalInfo } = item;
  const transaction = await verified('api', 'transaction', () =>
    context.verifier.verifyAndDecodeTransaction(signedTransactionInfo),
  );
  const renewal = signedRenewalInfo
    ? await verified('api', 'renewal info', () =>
        context.verifier.verifyAndDecodeRenewalInfo(signedRenewalInfo),
      )
    : null;
  return { status: item.status, transaction, renewal };
}

/** One transaction as Apple holds it now (Get Transaction Info): revoked or not. */
export async function readTransaction(
  context: AppStoreContext,
  transactionId: string,
): Promise<AppStoreTransaction | null> {
  const answer = await orNull(
    callApple('transaction', () => context.api.getTransactionInfo(transactionId)),
  );
  const signed = answer?.signedTransactionInfo;
  if (!signed) return null;
  return verified('api', 'transaction', () => context.verifier.verifyAndDecodeTransaction(signed));
}
