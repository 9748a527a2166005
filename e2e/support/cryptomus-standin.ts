import { startCryptomusStandIn } from '../../server/test/cryptomus-standin/cryptomus-standin.ts';
import { postWebhook } from '../../server/test/post-webhook.ts';
import { appWebhook, closeOnSignal, E2E_GATEWAY_KEYS } from './gateway-keys.ts';

// Cryptomus for the Playwright run: its payment API, its hosted payment page (Pay, Pay
// (unconfirmed), Confirm, Cancel) and webhooks signed in the body, posted to the app's
// webhook before the page sends the customer on. The app server has the same merchant id
// and payment key and CRYPTOMUS_API_URL pointing here.
const keys = E2E_GATEWAY_KEYS.cryptomus;
const webhook = appWebhook('cryptomus');
const standIn = await startCryptomusStandIn({
  port: Number(process.env.E2E_CRYPTOMUS_PORT ?? 5431),
  merchantId: process.env.E2E_CRYPTOMUS_MERCHANT_ID ?? keys.merchantId,
  paymentKey: process.env.E2E_CRYPTOMUS_PAYMENT_KEY ?? keys.paymentKey,
  deliver: (_callbackUrl, body) => postWebhook(webhook, body),
});
closeOnSignal(standIn);
