import { startAppStoreStandin } from '../../server/test/appstore-standin/appstore-standin.ts';
import {
  E2E_API_KEY,
  E2E_BUNDLE_ID,
  E2E_SIGNING_CHAIN,
} from '../../server/test/appstore-standin/e2e-keys.ts';

// The App Store for the Playwright run: Apple's API and notifications, signed with the fixed
// test chain whose root the app server is configured with (appStoreAppEnv in e2e-keys.ts).
// Journeys buy "in the app" through POST /standin/purchase; the notification is posted to
// the app's webhook before the answer comes back.
const port = Number(process.env.E2E_APPSTORE_PORT ?? 5421);
const appUrl = process.env.E2E_APP_URL ?? 'http://127.0.0.1:4317';
const webhook = `${appUrl}/api/public/v1/webhooks/appstore`;

const standin = await startAppStoreStandin({
  port,
  bundleId: E2E_BUNDLE_ID,
  environment: 'Sandbox',
  chain: E2E_SIGNING_CHAIN,
  apiKey: E2E_API_KEY,
  deliver: async (body) => {
    const response = await fetch(webhook, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return response.status;
  },
});

const stop = () => void standin.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
