import { deliverTo } from '../../server/test/stripe-standin/standin-webhooks.ts';
import { startStripeStandin } from '../../server/test/stripe-standin/stripe-standin.ts';

// Stripe for the Playwright run: its REST API, the hosted Checkout page (Pay, Cancel) and
// webhooks signed as Stripe signs them, posted to the app's webhook before the page sends
// the customer back. The app server is configured with the same keys (STRIPE_SECRET_KEY,
// STRIPE_WEBHOOK_SECRET) and STRIPE_API_URL pointing here.
export const E2E_STRIPE = {
  secretKey: 'sk_test_e2e_standin_0123456789',
  webhookSecret: 'whsec_e2e_standin_0123456789abcdef',
} as const;

const port = Number(process.env.E2E_STRIPE_PORT ?? 5401);
const appUrl = process.env.E2E_APP_URL ?? 'http://127.0.0.1:4317';

const standIn = await startStripeStandin({
  port,
  secretKey: process.env.E2E_STRIPE_SECRET_KEY ?? E2E_STRIPE.secretKey,
  webhookSecret: process.env.E2E_STRIPE_WEBHOOK_SECRET ?? E2E_STRIPE.webhookSecret,
  deliver: deliverTo(`${appUrl}/api/public/v1/webhooks/stripe`),
});

const stop = () => void standIn.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
