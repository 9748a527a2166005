import { startStripeStandin } from '../../server/test/stripe-standin/stripe-standin.ts';
import { appWebhook, closeOnSignal, E2E_GATEWAY_KEYS } from './gateway-keys.ts';

// Stripe for the Playwright run: its REST API, the hosted Checkout page (Pay, Cancel) and
// webhooks signed as Stripe signs them, posted to the app's webhook before the page sends
// the customer back. The app server has the same keys and STRIPE_API_URL pointing here.
const keys = E2E_GATEWAY_KEYS.stripe;
const standIn = await startStripeStandin({
  port: Number(process.env.E2E_STRIPE_PORT ?? 5401),
  secretKey: process.env.E2E_STRIPE_SECRET_KEY ?? keys.secretKey,
  webhookSecret: process.env.E2E_STRIPE_WEBHOOK_SECRET ?? keys.webhookSecret,
  webhookUrl: appWebhook('stripe'),
});
closeOnSignal(standIn);
