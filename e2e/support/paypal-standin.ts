import { startPayPalStandIn } from '../../server/test/paypal-standin/paypal-standin.ts';
import { postWebhook } from '../../server/test/post-webhook.ts';
import { appWebhook, closeOnSignal, E2E_GATEWAY_KEYS } from './gateway-keys.ts';

// PayPal for the Playwright run: its REST API, the buyer's approval page (Approve, Cancel)
// and webhooks signed with the stand-in's test certificate, posted to the app's webhook
// before the page sends the buyer back. The app server has the same client id, secret and
// webhook id, PAYPAL_ENVIRONMENT=sandbox and PAYPAL_API_URL pointing here.
const keys = E2E_GATEWAY_KEYS.paypal;
const webhook = appWebhook('paypal');
const standIn = await startPayPalStandIn({
  port: Number(process.env.E2E_PAYPAL_PORT ?? 5411),
  clientId: process.env.E2E_PAYPAL_CLIENT_ID ?? keys.clientId,
  clientSecret: process.env.E2E_PAYPAL_CLIENT_SECRET ?? keys.clientSecret,
  webhookId: process.env.E2E_PAYPAL_WEBHOOK_ID ?? keys.webhookId,
  deliver: (headers, body) => postWebhook(webhook, body, headers),
});
closeOnSignal(standIn);
