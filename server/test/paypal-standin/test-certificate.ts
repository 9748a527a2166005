import { createSign, generateKeyPairSync, randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import jsrsasign from 'jsrsasign';

// A test RSA certificate for PayPal: self-signed, named like PayPal's message verification
// certificate, with its private key, so the stand-in can sign webhooks as PayPal does.

export interface SigningCertificate {
  pem: string;
  privateKeyPem: string;
}

/** `YYMMDDhhmmssZ`, the UTCTime jsrsasign writes. */
const utcTime = (date: Date) => `${date.toISOString().replace(/[-:T]/g, '').slice(2, 14)}Z`;

export function createSigningCertificate(
  options: { validFrom?: Date; validTo?: Date } = {},
): SigningCertificate {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const name =
    '/C=US/ST=California/L=San Jose/O=PayPal, Inc./CN=messageverificationcerts.paypal.com';
  const certificate = new jsrsasign.KJUR.asn1.x509.Certificate({
    version: 3,
    serial: { int: Math.floor(Math.random() * 1e9) },
    issuer: { str: name },
    subject: { str: name },
    notbefore: utcTime(options.validFrom ?? new Date(Date.now() - 86_400_000)),
    notafter: utcTime(options.validTo ?? new Date(Date.now() + 365 * 86_400_000)),
    sbjpubkey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    ext: [{ extname: 'keyUsage', critical: true, names: ['digitalSignature'] }],
    sigalg: 'SHA256withRSA',
    cakey: privateKeyPem,
  } as never);
  return { pem: certificate.getPEM(), privateKeyPem };
}

/** PayPal's webhook headers for `body`: SHA256withRSA over id|time|webhook id|CRC32(body). */
export function signPayPalWebhook(
  body: string,
  options: {
    webhookId: string;
    privateKeyPem: string;
    certUrl: string;
    time?: Date;
    transmissionId?: string;
  },
): Record<string, string> {
  const transmissionId = options.transmissionId ?? randomUUID();
  const time = (options.time ?? new Date()).toISOString();
  const signed = `${transmissionId}|${time}|${options.webhookId}|${crc32(Buffer.from(body)) >>> 0}`;
  const signature = createSign('sha256').update(signed).sign(options.privateKeyPem, 'base64');
  return {
    'content-type': 'application/json',
    'paypal-transmission-id': transmissionId,
    'paypal-transmission-time': time,
    'paypal-transmission-sig': signature,
    'paypal-auth-algo': 'SHA256withRSA',
    'paypal-cert-url': options.certUrl,
  };
}
