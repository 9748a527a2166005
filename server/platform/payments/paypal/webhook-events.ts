import { type GatewayEvent, GatewayRequestError, WebhookRejected } from '../gateway.ts';
import { type PayPalApi, sdk } from './paypal-client.ts';
import type { RefundLedger } from './refund-ledger.ts';
import {
  invoiceSnapshot,
  paymentSnapshot,
  refundedCaptureId,
  refundedTotal,
  refundSnapshot,
  type SubscriptionRead,
  subscriptionSnapshot,
} from './snapshots.ts';
import { type PlanBook, readSubscription } from './subscription-reads.ts';

// A verified PayPal event, believed only as far as which objects it names: each is read back
// from PayPal and our snapshots are built from that fresh read, so events that arrive late,
// twice or out of order all converge to what PayPal holds now.

/** The parts of PayPal's webhook body we read. */
export interface PayPalWebhookBody {
  id: string;
  event_type: string;
  create_time?: string;
  resource_type?: string;
  resource?: {
    id?: string;
    billing_agreement_id?: string;
    sale_id?: string;
    [key: string]: unknown;
  };
}

export function parseWebhookBody(rawBody: Buffer): PayPalWebhookBody {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new WebhookRejected('body is not JSON');
  }
  const event = body as Partial<PayPalWebhookBody> | null;
  if (!event || typeof event.id !== 'string' || typeof event.event_type !== 'string') {
    throw new WebhookRejected('not a PayPal event');
  }
  return event as PayPalWebhookBody;
}

interface EventContext {
  api: PayPalApi;
  plans: PlanBook;
  refunds: RefundLedger;
}

/** The subscription, and the invoice and payment of `paymentId` (or its latest payment). */
function subscriptionParts(context: EventContext, read: SubscriptionRead, paymentId?: string) {
  const subscription = subscriptionSnapshot(read) ?? undefined;
  const latest = read.transactions
    .filter((each) => each.status !== 'DECLINED' && each.status !== 'FAILED')
    .sort((a, b) => a.time.localeCompare(b.time))
    .at(-1)?.id;
  const id = paymentId ?? latest;
  const invoice = id
    ? (invoiceSnapshot(read, id, context.refunds.totalOf(id)) ?? undefined)
    : undefined;
  return {
    ...(subscription ? { subscription } : {}),
    ...(invoice ? { invoice, payment: paymentSnapshot(invoice) } : {}),
  };
}

/** A subscription gone from PayPal (or never ours) is nothing to apply, not an outage. */
async function readIfThere(context: EventContext, id: string) {
  try {
    return await readSubscription(context.api, context.plans, id);
  } catch (error) {
    if (error instanceof GatewayRequestError && error.kind === 'not_found') return null;
    throw error;
  }
}

async function snapshotsOf(context: EventContext, event: PayPalWebhookBody) {
  const resource = event.resource ?? {};
  if (event.event_type.startsWith('BILLING.SUBSCRIPTION.') && resource.id) {
    const read = await readIfThere(context, resource.id);
    return read ? subscriptionParts(context, read) : {};
  }
  if (
    event.event_type === 'PAYMENT.SALE.REFUNDED' ||
    event.event_type === 'PAYMENT.CAPTURE.REFUNDED'
  ) {
    if (!resource.id) return {};
    const refundId = resource.id;
    const refund = await sdk('get refund', () => context.api.payments.getRefund({ refundId }));
    const captureId = refundedCaptureId(refund) ?? resource.sale_id ?? null;
    if (!captureId) return {};
    const parts: Partial<GatewayEvent> = { refund: refundSnapshot(refund, captureId) };
    // PayPal names the subscription on a refund only sometimes; without it the refund alone
    // is applied and the invoice's refunded sum follows with the subscription's next event.
    const read = resource.billing_agreement_id
      ? await readIfThere(context, resource.billing_agreement_id)
      : null;
    const total = refundedTotal(refund);
    if (total !== null) context.refunds.record(captureId, total);
    const invoice = read
      ? invoiceSnapshot(read, captureId, context.refunds.totalOf(captureId))
      : null;
    if (invoice) parts.invoice = invoice;
    return parts;
  }
  if (event.event_type.startsWith('PAYMENT.SALE.') && resource.id) {
    // A payment of something other than a subscription is not sold through PayPal here.
    if (!resource.billing_agreement_id) return {};
    const read = await readIfThere(context, resource.billing_agreement_id);
    return read ? subscriptionParts(context, read, resource.id) : {};
  }
  return {};
}

export async function paypalEvent(
  context: EventContext,
  event: PayPalWebhookBody,
): Promise<GatewayEvent> {
  return {
    ref: event.id,
    type: event.event_type,
    occurredAt: event.create_time ? new Date(event.create_time) : new Date(),
    ...(await snapshotsOf(context, event)),
    payload: event,
  };
}
