import { createHash } from 'node:crypto';

// The stand-in signs as Cryptomus's PHP does, written here apart from the adapter's own
// signer so that a mistake in one is caught by the other.

/** json_encode($value, JSON_UNESCAPED_UNICODE) for the plain values Cryptomus sends. */
export function encodeAsPhp(value: unknown): string {
  return JSON.stringify(value).split('/').join('\\/');
}

/** md5(base64_encode($text) . $key) */
export function md5Sign(text: string, key: string): string {
  return createHash('md5')
    .update(`${Buffer.from(text).toString('base64')}${key}`)
    .digest('hex');
}

/** A webhook body as Cryptomus posts it: the payload and its `sign`, PHP-encoded. */
export function signedWebhookBody(payload: Record<string, unknown>, key: string): string {
  const { sign: _ignored, ...rest } = payload;
  return encodeAsPhp({ ...rest, sign: md5Sign(encodeAsPhp(rest), key) });
}
