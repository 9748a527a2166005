import { startAppStoreStandin } from '../../server/test/appstore-standin/appstore-standin.ts';
import {
  E2E_API_KEY,
  E2E_BUNDLE_ID,
  E2E_SIGNING_CHAIN,
} from '../../server/test/appstore-standin/e2e-keys.ts';
import { postWebhook } from '../../server/test/post-webhook.ts';
import { appWebhook, closeOnSignal } from './gateway-keys.ts';

// The App Store for the Playwright run: Apple's API and notifications, signed with the fixed
// test chain whose root the app server is configured with (appStoreAppEnv in e2e-keys.ts).
// Journeys buy "in the app" through POST /standin/purchase; the notification is posted to
// the app's webhook before the answer comes back.
const webhook = appWebhook('appstore');
const standIn = await startAppStoreStandin({
  port: Number(process.env.E2E_APPSTORE_PORT ?? 5421),
  bundleId: E2E_BUNDLE_ID,
  environment: 'Sandbox',
  chain: E2E_SIGNING_CHAIN,
  apiKey: E2E_API_KEY,
  deliver: (body) => postWebhook(webhook, body),
});
closeOnSignal(standIn);
