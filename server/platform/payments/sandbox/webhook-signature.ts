import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookRejected } from '../gateway.ts';

// The sandbox signs its webhooks as Stripe does: `Sandbox-Signature: t=<unix seconds>,
// v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. The timestamp is signed with the body, so an
// old delivery cannot be replayed with a fresh time; it is real time, not the billing
// clock, since replay is a matter of the wall clock.

export const SIGNATURE_HEADER = 'sandbox-signature';

/** How far a signature's time may be from ours, either way (Stripe's default). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

function hmac(secret: string, timestamp: number, body: string | Buffer): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
}

/** The `Sandbox-Signature` header's value for `body` (tests sign their own webhooks with it). */
export function signSandboxWebhook(
  secret: string,
  body: string | Buffer,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, body).toString('hex')}`;
}

function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/** Throws WebhookRejected unless `rawBody` carries a good, fresh signature. */
export function checkSandboxSignature(
  secret: string,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
  nowSeconds = Date.now() / 1000,
): void {
  const header = headerValue(headers, SIGNATURE_HEADER);
  if (!header) throw new WebhookRejected('missing Sandbox-Signature header');
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [key, value = ''] = part.trim().split('=', 2);
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    // More than one v1 is how a processor rolls its secret over; any may match.
    else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value))
      signatures.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === undefined || signatures.length === 0) {
    throw new WebhookRejected('malformed Sandbox-Signature header');
  }
  if (Math.abs(nowSeconds - timestamp) > SIGNATURE_TOLERANCE_SECONDS) {
    throw new WebhookRejected('Sandbox-Signature timestamp outside the tolerance');
  }
  const expected = hmac(secret, timestamp, rawBody);
  // Compared in constant time, so the answer's timing tells nothing of the right signature.
  if (!signatures.some((signature) => timingSafeEqual(signature, expected))) {
    throw new WebhookRejected('Sandbox-Signature does not match');
  }
}
