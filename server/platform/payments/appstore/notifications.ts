import { type GatewayEvent, GatewayUnavailable, WebhookRejected } from '../gateway.ts';
import type { AppStoreContext } from './appstore-context.ts';
import { verified } from './signed-data.ts';
import { isSubscription, subscriptionSnapshot, transactionSnapshots } from './snapshots.ts';
import { readSubscription, readTransaction } from './subscription-reads.ts';

// App Store Server Notifications V2: `{"signedPayload": "<JWS>"}`, signed by Apple's chain.
//
// No age limit on signedDate: Apple retries a notification our server did not take for days,
// with the date it first signed it, so a limit would refuse its own retries. A replay cannot
// do harm either: each notification is applied once (its notificationUUID is the event ref),
// and what we apply is never the notification's own data but the subscription and the
// transaction read back from the App Store Server API now, so an old notification, replayed
// or late, converges to Apple's present state like a new one.

function signedPayloadOf(rawBody: Buffer): string {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new WebhookRejected('App Store notification: body is not JSON');
  }
  const signed = (body as { signedPayload?: unknown } | null)?.signedPayload;
  if (typeof signed !== 'string' || signed.length === 0) {
    throw new WebhookRejected('App Store notification: no signedPayload');
  }
  return signed;
}

export async function verifyNotification(
  context: AppStoreContext,
  rawBody: Buffer,
): Promise<GatewayEvent[]> {
  const signedPayload = signedPayloadOf(rawBody);
  const notification = await verified('webhook', 'notification', () =>
    context.verifier.verifyAndDecodeNotification(signedPayload),
  );
  const ref = notification.notificationUUID;
  if (!ref) throw new WebhookRejected('App Store notification: no notificationUUID');
  const event: GatewayEvent = {
    ref,
    type: [notification.notificationType, notification.subtype].filter(Boolean).join('.'),
    occurredAt: new Date(notification.signedDate ?? context.now().getTime()),
    payload: notification,
  };
  // TEST, summaries of mass renewal extensions, external purchase tokens: nothing to apply.
  const signedTransaction = notification.data?.signedTransactionInfo;
  if (!signedTransaction) return [event];
  const told = await verified('webhook', 'transaction', () =>
    context.verifier.verifyAndDecodeTransaction(signedTransaction),
  );
  // We sell auto-renewable subscriptions only; other in-app purchases are not ours to apply.
  if (!isSubscription(told) || !told.originalTransactionId || !told.transactionId) return [event];

  const readAt = context.now();
  const [state, transaction] = await Promise.all([
    readSubscription(context, told.originalTransactionId),
    readTransaction(context, told.transactionId),
  ]);
  // Apple signed it, so Apple will show it: not yet is a reason to be asked again.
  if (!state || !transaction) {
    throw new GatewayUnavailable('App Store: the notified subscription is not readable yet');
  }
  return [
    {
      ...event,
      subscription: subscriptionSnapshot(state, readAt),
      ...transactionSnapshots(transaction, readAt),
    },
  ];
}
