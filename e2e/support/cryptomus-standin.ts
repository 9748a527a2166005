import { startCryptomusStandIn } from '../../server/test/cryptomus-standin/cryptomus-standin.ts';

// Cryptomus for the Playwright run: its payment API, its hosted payment page (Pay, Pay
// (unconfirmed), Confirm, Cancel) and webhooks signed in the body, posted to the app's
// webhook before the page sends the customer on. The app server is configured with the same
// merchant id and payment key (CRYPTOMUS_MERCHANT_ID, CRYPTOMUS_PAYMENT_KEY) and
// CRYPTOMUS_API_URL pointing here.
const E2E_CRYPTOMUS_MERCHANT_ID = 'e2e00000-c0de-4a1e-9c1a-000000000006';
const E2E_CRYPTOMUS_PAYMENT_KEY = 'e2e-cryptomus-payment-key-0123456789abcdef';

const port = Number(process.env.E2E_CRYPTOMUS_PORT ?? 5431);
const appUrl = process.env.E2E_APP_URL ?? 'http://127.0.0.1:4317';
const webhook = `${appUrl}/api/public/v1/webhooks/cryptomus`;

const standIn = await startCryptomusStandIn({
  port,
  merchantId: process.env.E2E_CRYPTOMUS_MERCHANT_ID ?? E2E_CRYPTOMUS_MERCHANT_ID,
  paymentKey: process.env.E2E_CRYPTOMUS_PAYMENT_KEY ?? E2E_CRYPTOMUS_PAYMENT_KEY,
  deliver: async (_callbackUrl, body) => {
    try {
      const response = await fetch(webhook, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      return response.status;
    } catch {
      return 0;
    }
  },
});

const stop = () => void standIn.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
