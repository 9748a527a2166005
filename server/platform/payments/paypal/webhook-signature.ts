import { verify, X509Certificate } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { PayPalSettings } from '#shared/billing/gateway-settings.ts';
import { GatewayUnavailable, WebhookRejected } from '../gateway.ts';

// PayPal's webhook signature, checked here rather than by PayPal's verify-webhook-signature
// call (one round trip less per event, and it works offline in tests): PayPal signs
// `<transmission id>|<transmission time>|<webhook id>|<CRC32 of the raw body, decimal>` with
// SHA256withRSA, and says in `paypal-cert-url` where its certificate is.

/** Older than this, or this far in the future, a transmission is refused as a replay. */
const MAX_AGE_MS = 5 * 60_000;
const MAX_SKEW_MS = 60_000;
const CERT_CACHE_SIZE = 20;

const CERT_HOSTS = {
  live: ['api.paypal.com', 'api-m.paypal.com'],
  sandbox: ['api.sandbox.paypal.com', 'api-m.sandbox.paypal.com'],
};

function header(headers: Record<string, string | string[] | undefined>, name: string): string {
  const value = headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) throw new WebhookRejected(`missing ${name}`);
  return text;
}

/**
 * Certificates come only from PayPal's own host over HTTPS (or from `apiUrl`, the stand-in
 * an operator pointed us at): a certificate from anywhere else would let anyone sign.
 */
export function certificateUrlAllowed(settings: PayPalSettings, certUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(certUrl);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (settings.apiUrl) return url.origin === new URL(settings.apiUrl).origin;
  return (
    url.protocol === 'https:' &&
    url.port === '' &&
    CERT_HOSTS[settings.environment].includes(url.hostname) &&
    url.pathname.startsWith('/v1/notifications/certs/')
  );
}

export class CertificateCache {
  private readonly certificates = new Map<string, X509Certificate>();

  async get(url: string): Promise<X509Certificate> {
    const held = this.certificates.get(url);
    if (held) return held;
    let response: Response;
    try {
      response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(10_000) });
    } catch (error) {
      // PayPal unreachable: ours to retry, not the sender's fault.
      throw new GatewayUnavailable('PayPal certificate unreachable', { cause: error });
    }
    if (response.status >= 500)
      throw new GatewayUnavailable(`PayPal certificate: ${response.status}`);
    if (!response.ok) throw new WebhookRejected(`certificate: HTTP ${response.status}`);
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(await response.text());
    } catch {
      throw new WebhookRejected('certificate unreadable');
    }
    if (this.certificates.size >= CERT_CACHE_SIZE) {
      const oldest = this.certificates.keys().next().value;
      if (oldest !== undefined) this.certificates.delete(oldest);
    }
    this.certificates.set(url, certificate);
    return certificate;
  }
}

/** What PayPal signs: the transmission, our webhook id and the body's CRC32. */
export function signedText(
  transmissionId: string,
  transmissionTime: string,
  webhookId: string,
  rawBody: Buffer,
): string {
  return `${transmissionId}|${transmissionTime}|${webhookId}|${crc32(rawBody) >>> 0}`;
}

/** Throws WebhookRejected unless PayPal signed this body for our webhook, lately. */
export async function verifyPayPalSignature(
  settings: PayPalSettings,
  certificates: CertificateCache,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
  now = new Date(),
): Promise<void> {
  const transmissionId = header(headers, 'paypal-transmission-id');
  const transmissionTime = header(headers, 'paypal-transmission-time');
  const signature = header(headers, 'paypal-transmission-sig');
  const algorithm = header(headers, 'paypal-auth-algo');
  const certUrl = header(headers, 'paypal-cert-url');
  if (algorithm !== 'SHA256withRSA') throw new WebhookRejected(`algorithm ${algorithm}`);
  const sentAt = Date.parse(transmissionTime);
  if (Number.isNaN(sentAt)) throw new WebhookRejected('unreadable transmission time');
  const age = now.getTime() - sentAt;
  if (age > MAX_AGE_MS || age < -MAX_SKEW_MS) throw new WebhookRejected('stale transmission');
  if (!certificateUrlAllowed(settings, certUrl)) {
    throw new WebhookRejected('certificate URL not at PayPal');
  }
  const certificate = await certificates.get(certUrl);
  if (now < new Date(certificate.validFrom) || now > new Date(certificate.validTo)) {
    throw new WebhookRejected('certificate not valid now');
  }
  const text = signedText(transmissionId, transmissionTime, settings.webhookId, rawBody);
  const valid = verify(
    'sha256',
    Buffer.from(text, 'utf8'),
    certificate.publicKey,
    Buffer.from(signature, 'base64'),
  );
  if (!valid) throw new WebhookRejected('signature does not match');
}
