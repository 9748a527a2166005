import { type GatewayEvent, WebhookRejected } from '../gateway.ts';
import type { EventObjects, SandboxEvent } from './sandbox-objects.ts';
import {
  cardSnapshot,
  invoiceSnapshot,
  paymentSnapshot,
  refundSnapshot,
  subscriptionSnapshot,
} from './snapshots.ts';
import { checkSandboxSignature } from './webhook-signature.ts';

/** What a webhook's body holds: one event and the objects it concerns, as they stood. */
export interface SandboxEventPayload {
  id: string;
  object: 'event';
  type: string;
  created: string;
  data: EventObjects;
}

export function eventPayload(event: SandboxEvent): SandboxEventPayload {
  return {
    id: event.id,
    object: 'event',
    type: event.type,
    created: event.createdAt,
    data: event.data,
  };
}

function isPayload(value: unknown): value is SandboxEventPayload {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  return (
    typeof event.id === 'string' &&
    event.id.startsWith('evt_') &&
    event.object === 'event' &&
    typeof event.type === 'string' &&
    typeof event.created === 'string' &&
    typeof event.data === 'object' &&
    event.data !== null
  );
}

/** The event in our vocabulary: a snapshot of every object it concerns. */
export function gatewayEventOf(payload: SandboxEventPayload): GatewayEvent {
  const { data } = payload;
  const event: GatewayEvent = {
    ref: payload.id,
    type: payload.type,
    occurredAt: new Date(payload.created),
    payload,
  };
  if (data.subscription) event.subscription = subscriptionSnapshot(data.subscription);
  if (data.invoice) event.invoice = invoiceSnapshot(data.invoice);
  if (data.payment) event.payment = paymentSnapshot(data.payment);
  if (data.refund) event.refund = refundSnapshot(data.refund);
  if (data.card && !data.deletedCard) event.card = cardSnapshot(data.card);
  if (data.deletedCard) event.deletedCardRef = data.deletedCard;
  return event;
}

/** PaymentGateway.verifyWebhook for the sandbox: the signature first, then the event. */
export function verifySandboxWebhook(
  secret: string,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
): GatewayEvent[] {
  checkSandboxSignature(secret, rawBody, headers);
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new WebhookRejected('body is not JSON');
  }
  if (!isPayload(payload)) throw new WebhookRejected('body is not a sandbox event');
  try {
    return [gatewayEventOf(payload)];
  } catch {
    // Signed by us yet unreadable: refused rather than half applied.
    throw new WebhookRejected('event objects are malformed');
  }
}
