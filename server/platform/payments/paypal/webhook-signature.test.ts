import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayPalSettings } from '#shared/billing/gateway-settings.ts';
import {
  createSigningCertificate,
  signPayPalWebhook,
} from '../../../test/paypal-standin/test-certificate.ts';
import { GatewayUnavailable, WebhookRejected } from '../gateway.ts';
import {
  CertificateCache,
  certificateUrlAllowed,
  signedText,
  verifyPayPalSignature,
} from './webhook-signature.ts';

// PayPal's signature scheme against a test RSA certificate served over real HTTP: only a
// body signed for our webhook id, lately, with a certificate from PayPal's host, passes.

const WEBHOOK_ID = '1JE4291016473214C';
const certificate = createSigningCertificate();
const expired = createSigningCertificate({
  validFrom: new Date(Date.now() - 3 * 86_400_000),
  validTo: new Date(Date.now() - 86_400_000),
});
let origin = '';
let fetches = 0;
let settings: PayPalSettings;
const server = createServer((request, response) => {
  fetches += 1;
  if (request.url === '/v1/notifications/certs/CERT-good') return response.end(certificate.pem);
  if (request.url === '/v1/notifications/certs/CERT-expired') return response.end(expired.pem);
  response.writeHead(404).end();
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  settings = {
    clientId: 'id',
    clientSecret: 'secret',
    webhookId: WEBHOOK_ID,
    environment: 'sandbox',
    apiUrl: origin,
  };
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const BODY = JSON.stringify({ id: 'WH-1', event_type: 'BILLING.SUBSCRIPTION.ACTIVATED' });

function signed(
  options: { body?: string; time?: Date; cert?: string; key?: string; id?: string } = {},
) {
  return signPayPalWebhook(options.body ?? BODY, {
    webhookId: options.id ?? WEBHOOK_ID,
    privateKeyPem: options.key ?? certificate.privateKeyPem,
    certUrl: options.cert ?? `${origin}/v1/notifications/certs/CERT-good`,
    ...(options.time ? { time: options.time } : {}),
  });
}

const check = (headers: Record<string, string>, body = BODY, cache = new CertificateCache()) =>
  verifyPayPalSignature(settings, cache, Buffer.from(body), headers);

describe('PayPal webhook signatures', () => {
  it('signs id|time|webhook id|CRC32 of the body, as an unsigned decimal', () => {
    const body = Buffer.from('{"a":1}');
    expect(signedText('t-1', '2025-01-01T00:00:00Z', 'W', body)).toBe(
      `t-1|2025-01-01T00:00:00Z|W|${crc32(body) >>> 0}`,
    );
    // A known CRC32: "123456789" is 0xCBF43926.
    expect(signedText('a', 'b', 'c', Buffer.from('123456789'))).toBe(`a|b|c|${0xcbf43926}`);
  });

  it('accepts PayPal’s signature, fetching the certificate once', async () => {
    const cache = new CertificateCache();
    const before = fetches;
    await check(signed(), BODY, cache);
    await check(signed(), BODY, cache);
    expect(fetches - before).toBe(1);
  });

  it.each([
    ['a tampered body', () => ({ headers: signed(), body: BODY.replace('WH-1', 'WH-2') })],
    ['another webhook’s id', () => ({ headers: signed({ id: 'OTHERWEBHOOK' }), body: BODY })],
    ['another key', () => ({ headers: signed({ key: expired.privateKeyPem }), body: BODY })],
    [
      'a stale transmission',
      () => ({ headers: signed({ time: new Date(Date.now() - 6 * 60_000) }), body: BODY }),
    ],
    [
      'a transmission from the future',
      () => ({ headers: signed({ time: new Date(Date.now() + 5 * 60_000) }), body: BODY }),
    ],
    [
      'a certificate from elsewhere',
      () => ({
        headers: signed({ cert: 'https://evil.example/v1/notifications/certs/X' }),
        body: BODY,
      }),
    ],
    [
      'an expired certificate',
      () => ({
        headers: signed({
          cert: `${origin}/v1/notifications/certs/CERT-expired`,
          key: expired.privateKeyPem,
        }),
        body: BODY,
      }),
    ],
    [
      'a certificate PayPal does not have',
      () => ({
        headers: signed({ cert: `${origin}/v1/notifications/certs/CERT-none` }),
        body: BODY,
      }),
    ],
    [
      'another algorithm',
      () => ({ headers: { ...signed(), 'paypal-auth-algo': 'SHA1withRSA' }, body: BODY }),
    ],
  ])('refuses %s', async (_name, make) => {
    const { headers, body } = make();
    await expect(check(headers, body)).rejects.toBeInstanceOf(WebhookRejected);
  });

  it('refuses a webhook without its headers', async () => {
    const { 'paypal-transmission-sig': _sig, ...unsigned } = signed();
    await expect(check(unsigned)).rejects.toThrow(/paypal-transmission-sig/);
  });

  it('takes certificates only from PayPal’s hosts over HTTPS, or from apiUrl', () => {
    const live: PayPalSettings = { ...settings, environment: 'live', apiUrl: undefined };
    const cert = '/v1/notifications/certs/CERT-360caa42-fca2a594-7a8abba8';
    expect(certificateUrlAllowed(live, `https://api.paypal.com${cert}`)).toBe(true);
    expect(certificateUrlAllowed(live, `http://api.paypal.com${cert}`)).toBe(false);
    expect(certificateUrlAllowed(live, `https://api.sandbox.paypal.com${cert}`)).toBe(false);
    expect(certificateUrlAllowed(live, `https://api.paypal.com.evil.example${cert}`)).toBe(false);
    expect(certificateUrlAllowed(live, `https://api.paypal.com:8443${cert}`)).toBe(false);
    expect(certificateUrlAllowed(live, `https://user@api.paypal.com${cert}`)).toBe(false);
    expect(certificateUrlAllowed(live, 'https://api.paypal.com/elsewhere')).toBe(false);
    expect(certificateUrlAllowed(settings, `${origin}${cert}`)).toBe(true);
    expect(certificateUrlAllowed(settings, `https://api.paypal.com${cert}`)).toBe(false);
  });

  it('is ours to retry when PayPal’s certificate host cannot be reached', async () => {
    const away = { ...settings, apiUrl: 'http://127.0.0.1:9' };
    const headers = signed({ cert: 'http://127.0.0.1:9/v1/notifications/certs/CERT-good' });
    await expect(
      verifyPayPalSignature(away, new CertificateCache(), Buffer.from(BODY), headers),
    ).rejects.toBeInstanceOf(GatewayUnavailable);
  });
});
