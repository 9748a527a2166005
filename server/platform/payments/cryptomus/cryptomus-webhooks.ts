import type { FastifyBaseLogger } from 'fastify';
import { type GatewayEvent, GatewayRequestError, WebhookRejected } from '../gateway.ts';
import type { CryptomusInvoice } from './cryptomus-objects.ts';
import { webhookSignatureValid } from './cryptomus-signature.ts';
import { snapshotsOf } from './cryptomus-snapshots.ts';

// A Cryptomus webhook (doc "Webhook": POSTed to url_callback on each status change, `sign`
// in the body) is a signed hint, never the truth: its signature has no timestamp, so a
// captured one could be replayed forever, and its status is whatever was sent. So once the
// signature holds, the invoice is read back from Cryptomus (/v1/payment/info) and only that
// answer is turned into snapshots, stamped with the time of the read: a replayed or late
// webhook then only ever tells us Cryptomus's current state. Their documented sending
// address (91.227.144.54) is not checked: proxies hide it and it may change; the read-back
// is the protection.

export interface WebhookDeps {
  paymentKey: string;
  /** The invoice as Cryptomus holds it now; throws GatewayUnavailable when unreachable. */
  readInvoice(uuid: string): Promise<CryptomusInvoice>;
  log: FastifyBaseLogger;
}

function parse(rawBody: Buffer): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new WebhookRejected('not JSON');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new WebhookRejected('not a JSON object');
  }
  return body as Record<string, unknown>;
}

export async function verifyCryptomusWebhook(
  deps: WebhookDeps,
  rawBody: Buffer,
): Promise<GatewayEvent[]> {
  const body = parse(rawBody);
  if (!webhookSignatureValid(body, deps.paymentKey)) {
    throw new WebhookRejected('missing or wrong signature');
  }
  // Static wallets (type "wallet") are not something we sell through.
  if (body.type !== 'payment' || typeof body.uuid !== 'string') {
    deps.log.info({ type: body.type }, 'cryptomus webhook not about an invoice: ignored');
    return [];
  }
  let invoice: CryptomusInvoice;
  try {
    // A failure here is thrown on: the route answers 5xx and Cryptomus sends it again.
    invoice = await deps.readInvoice(body.uuid);
  } catch (error) {
    if (error instanceof GatewayRequestError && error.kind === 'not_found') {
      deps.log.warn({ uuid: body.uuid }, 'cryptomus webhook for an unknown invoice: ignored');
      return [];
    }
    throw error;
  }
  const readAt = new Date();
  const snapshots = snapshotsOf(invoice, readAt);
  if (!snapshots) {
    deps.log.warn({ uuid: invoice.uuid }, 'cryptomus invoice without our order note: ignored');
    return [];
  }
  return [
    {
      // Each status Cryptomus reports is applied once: a replay, or a webhook whose own
      // claim differs from what the read found, is named by what the read found.
      ref: `${invoice.uuid}:${invoice.status}${invoice.is_final ? ':final' : ''}`,
      type: `payment.${invoice.status}`,
      occurredAt: readAt,
      ...snapshots,
      payload: body,
    },
  ];
}
