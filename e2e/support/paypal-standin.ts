import { startPayPalStandIn } from '../../server/test/paypal-standin/paypal-standin.ts';

// PayPal for the Playwright run: its REST API, the buyer's approval page (Approve, Cancel)
// and webhooks signed with the stand-in's test certificate, posted to the app's webhook
// before the page sends the buyer back. The app server is configured with the same client
// id, secret and webhook id (PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, PAYPAL_WEBHOOK_ID),
// PAYPAL_ENVIRONMENT=sandbox and PAYPAL_API_URL pointing here.
const E2E_PAYPAL = {
  clientId: 'e2e-paypal-client-id',
  clientSecret: 'e2e-paypal-client-secret-0123456789',
  webhookId: 'E2E0WEBHOOK0PAYPAL01',
} as const;

const port = Number(process.env.E2E_PAYPAL_PORT ?? 5411);
const appUrl = process.env.E2E_APP_URL ?? 'http://127.0.0.1:4317';
const webhook = `${appUrl}/api/public/v1/webhooks/paypal`;

const standIn = await startPayPalStandIn({
  port,
  clientId: process.env.E2E_PAYPAL_CLIENT_ID ?? E2E_PAYPAL.clientId,
  clientSecret: process.env.E2E_PAYPAL_CLIENT_SECRET ?? E2E_PAYPAL.clientSecret,
  webhookId: process.env.E2E_PAYPAL_WEBHOOK_ID ?? E2E_PAYPAL.webhookId,
  deliver: async (headers, body) => {
    try {
      const response = await fetch(webhook, {
        method: 'POST',
        headers,
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
