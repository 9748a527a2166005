import { describe, expect, it } from 'vitest';
import { cryptomusSign, phpJson, webhookSignatureValid } from './cryptomus-signature.ts';

// Cryptomus's documentation shows its scheme in PHP — md5(base64_encode(json_encode($data))
// . $API_KEY), and for webhooks json_encode($data, JSON_UNESCAPED_UNICODE) of the body
// without `sign` — and example values (a `sign` of f80fa426… for the body `{}`, a webhook
// signed a76c0d77…) but never the key that made them, so those cannot be reproduced. The
// expected values below were computed apart from this code, with coreutils:
//   printf '%s' "$(printf '%s' "$JSON" | base64 -w0)$KEY" | md5sum
// over the PHP encodings written out by hand.

const KEY = 'uQ4LFVvO9X2rdE1fHcTgk5Zwh0ai3Kmb';

/** The webhook of Cryptomus's "Webhook" page, without its `sign`. */
const DOCUMENTED_WEBHOOK = {
  type: 'payment',
  uuid: '62f88b36-a9d5-4fa6-aa26-e040c3dbf26d',
  order_id: '97a75bf8eda5cca41ba9d2e104840fcd',
  amount: '3.00000000',
  payment_amount: '3.00000000',
  payment_amount_usd: '0.23',
  merchant_amount: '2.94000000',
  commission: '0.06000000',
  is_final: true,
  status: 'paid',
  from: 'THgEWubVc8tPKXLJ4VZ5zbiiAK7AgqSeGH',
  wallet_address_uuid: null,
  network: 'tron',
  currency: 'TRX',
  payer_currency: 'TRX',
  additional_data: null,
  convert: {
    to_currency: 'USDT',
    commission: null,
    rate: '0.07700000',
    amount: '0.22638000',
  },
  txid: '6f0d9c8374db57cac0d806251473de754f361c83a03cd805f74aa9da3193486b',
};
const DOCUMENTED_WEBHOOK_SIGN = '1634c3f3e62d3ae3494b737c4e7656a1';

describe('the Cryptomus signature', () => {
  it('signs a request body as the documented PHP does (the empty body `{}`)', () => {
    expect(cryptomusSign('{}', KEY)).toBe('3498be0a387c25d1c37fbe6d072a51be');
  });

  it("signs the documentation's webhook example as PHP encodes it", () => {
    expect(phpJson(DOCUMENTED_WEBHOOK)).toBe(
      '{"type":"payment","uuid":"62f88b36-a9d5-4fa6-aa26-e040c3dbf26d","order_id":"97a75bf8eda5cca41ba9d2e104840fcd","amount":"3.00000000","payment_amount":"3.00000000","payment_amount_usd":"0.23","merchant_amount":"2.94000000","commission":"0.06000000","is_final":true,"status":"paid","from":"THgEWubVc8tPKXLJ4VZ5zbiiAK7AgqSeGH","wallet_address_uuid":null,"network":"tron","currency":"TRX","payer_currency":"TRX","additional_data":null,"convert":{"to_currency":"USDT","commission":null,"rate":"0.07700000","amount":"0.22638000"},"txid":"6f0d9c8374db57cac0d806251473de754f361c83a03cd805f74aa9da3193486b"}',
    );
    expect(
      webhookSignatureValid({ ...DOCUMENTED_WEBHOOK, sign: DOCUMENTED_WEBHOOK_SIGN }, KEY),
    ).toBe(true);
  });

  it("escapes slashes, keeps Unicode, and turns an empty object into PHP's []", () => {
    const body = {
      type: 'payment',
      uuid: '1f0c',
      additional_data: '{"u":"7","back":"https://vpn.example/ru/спасибо"}',
      convert: {},
      status: 'paid',
    };
    const php =
      '{"type":"payment","uuid":"1f0c","additional_data":"{\\"u\\":\\"7\\",\\"back\\":\\"https:\\/\\/vpn.example\\/ru\\/спасибо\\"}","convert":[],"status":"paid"}';
    expect(phpJson(body)).toBe(php);
    expect(phpJson({ line: 'a\u2028b' })).toBe('{"line":"a\\u2028b"}');
    expect(webhookSignatureValid({ ...body, sign: 'e5956d0b190b00d8da2253a7b820ac99' }, KEY)).toBe(
      true,
    );
    // The same, signed over JSON.stringify's unescaped slashes, is not what Cryptomus sends.
    expect(
      webhookSignatureValid({ ...body, sign: cryptomusSign(JSON.stringify(body), KEY) }, KEY),
    ).toBe(false);
  });

  it('refuses a tampered field, another key, a missing or malformed sign', () => {
    const signed = { ...DOCUMENTED_WEBHOOK, sign: DOCUMENTED_WEBHOOK_SIGN };
    expect(webhookSignatureValid({ ...signed, status: 'paid_over' }, KEY)).toBe(false);
    expect(webhookSignatureValid({ ...signed, amount: '30.00000000' }, KEY)).toBe(false);
    expect(webhookSignatureValid(signed, `${KEY}x`)).toBe(false);
    expect(webhookSignatureValid({ ...DOCUMENTED_WEBHOOK }, KEY)).toBe(false);
    expect(webhookSignatureValid({ ...DOCUMENTED_WEBHOOK, sign: 42 }, KEY)).toBe(false);
    expect(webhookSignatureValid({ ...DOCUMENTED_WEBHOOK, sign: 'a76c0d77' }, KEY)).toBe(false);
    // Hex case is not part of the value.
    expect(
      webhookSignatureValid(
        { ...DOCUMENTED_WEBHOOK, sign: DOCUMENTED_WEBHOOK_SIGN.toUpperCase() },
        KEY,
      ),
    ).toBe(true);
  });
});
