import { createHash, timingSafeEqual } from 'node:crypto';

// Cryptomus signs with md5(base64(json) + payment API key) (doc.cryptomus.com, "Request
// format" and "Webhook"): our requests carry it in the `sign` header over the body we send;
// its webhooks carry it inside the JSON body, computed over the body without `sign` as PHP's
// json_encode($data, JSON_UNESCAPED_UNICODE) writes it. MD5 is theirs, not our choice; there
// is no timestamp in it, so a webhook is only a signed hint (see cryptomus-webhooks.ts).

/**
 * PHP's `json_encode(json_decode($body, true), JSON_UNESCAPED_UNICODE)`: compact, `/` written
 * `\/`, non-ASCII left as UTF-8 except U+2028/U+2029 (escaped unless
 * JSON_UNESCAPED_LINE_TERMINATORS), and an empty object decoded as an array comes back `[]`.
 * Whole-number floats (PHP `1.0`) cannot be told from integers here: Cryptomus sends its
 * amounts as strings, so none are expected.
 */
export function phpJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, item: unknown) =>
    item !== null &&
    typeof item === 'object' &&
    !Array.isArray(item) &&
    Object.keys(item).length === 0
      ? []
      : item,
  );
  return text
    .replace(/\//g, '\\/')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** md5(base64(text) + key), lower-case hex. */
export function cryptomusSign(text: string, paymentKey: string): string {
  return createHash('md5')
    .update(Buffer.from(text, 'utf8').toString('base64') + paymentKey, 'utf8')
    .digest('hex');
}

function sameHex(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given.toLowerCase(), 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Whether a webhook's parsed body carries a valid `sign` for the rest of it. Compared in
 * constant time: an attacker timing our answers learns nothing of the expected value.
 */
export function webhookSignatureValid(body: Record<string, unknown>, paymentKey: string): boolean {
  const { sign, ...rest } = body;
  if (typeof sign !== 'string' || !/^[0-9a-fA-F]{32}$/.test(sign)) return false;
  return sameHex(cryptomusSign(phpJson(rest), paymentKey), sign);
}
