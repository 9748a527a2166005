import { defineConfig, devices } from '@playwright/test';
import { E2E_GATEWAY_KEYS } from './e2e/support/gateway-keys.ts';
import { appStoreAppEnv } from './server/test/appstore-standin/e2e-keys.ts';

// Browser journeys in Debian's Chromium (Playwright cannot download browsers here) against
// the built app served by the real server on an in-memory database with the demo data.
const port = Number(process.env.E2E_PORT ?? 4317);
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 4318);
const mailPort = Number(process.env.E2E_MAIL_PORT ?? 4319);
const oidcPort = Number(process.env.E2E_OIDC_PORT ?? 4320);
const oidcSecret = 'e2e-client-secret';
const baseURL = `http://127.0.0.1:${port}`;

// The real payment gateways' journeys run against a second app server whose gateways are
// configured and point at local stand-ins of the providers (server/test/*-standin): there
// Stripe sells cards instead of the sandbox, which the first server's journeys use.
const gatewaysPort = Number(process.env.E2E_GATEWAYS_PORT ?? port + 10);
const gatewaysURL = `http://127.0.0.1:${gatewaysPort}`;
// The specs read their stand-in's port from the environment: set here, workers inherit it.
process.env.E2E_APPSTORE_PORT ??= String(gatewaysPort + 1);
process.env.E2E_CRYPTOMUS_PORT ??= String(gatewaysPort + 2);
process.env.E2E_PAYPAL_PORT ??= String(gatewaysPort + 3);
process.env.E2E_STRIPE_PORT ??= String(gatewaysPort + 4);
const standIn = (name: 'APPSTORE' | 'CRYPTOMUS' | 'PAYPAL' | 'STRIPE') =>
  `http://127.0.0.1:${process.env[`E2E_${name}_PORT`]}`;
const GATEWAY_SPECS = /(stripe|paypal|appstore|cryptomus)\.spec\.ts/;

/** An app server on the embedded defaults with the demo data, sending mail to the catcher. */
function appServerEnv(appPort: number): Record<string, string> {
  return {
    NODE_ENV: 'test',
    PORT: String(appPort),
    HOST: '127.0.0.1',
    APP_URL: `http://127.0.0.1:${appPort}`,
    DATA_DIR: 'memory://',
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    REDIS_URL: '',
    // Every journey's requests come from 127.0.0.1: the per-address limits would
    // throttle the suite, not an attacker (they are tested in the Vitest suite).
    RATE_LIMIT_SCALE: '100',
    OAUTH_GOOGLE_CLIENT_ID: 'vpn-web',
    OAUTH_GOOGLE_CLIENT_SECRET: oidcSecret,
    OAUTH_GOOGLE_ISSUER: `http://127.0.0.1:${oidcPort}`,
  };
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
      testIgnore: [/billing-clock\.spec\.ts/, GATEWAY_SPECS],
    },
    {
      name: 'gateways',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
        baseURL: gatewaysURL,
      },
      testMatch: GATEWAY_SPECS,
    },
    {
      // Journeys that move the sandbox's test clock, shared by every subscription of the
      // server: after all the others, so no other journey sees its time jump.
      name: 'billing-clock',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
      testMatch: /billing-clock\.spec\.ts/,
      dependencies: ['desktop'],
    },
  ],
  webServer: [
    ...(['appstore', 'cryptomus', 'paypal', 'stripe'] as const).map((name) => ({
      command: `exec node --import tsx e2e/support/${name}-standin.ts`,
      url: `${standIn(name.toUpperCase() as Uppercase<typeof name>)}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
      env: { E2E_APP_URL: gatewaysURL },
    })),
    {
      // A real SMTP server the app sends to; tests read the messages over HTTP.
      command: 'exec node --import tsx e2e/support/mail-catcher.ts',
      url: `http://127.0.0.1:${mailPort}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { E2E_SMTP_PORT: String(smtpPort), E2E_MAIL_PORT: String(mailPort) },
    },
    {
      // A real OpenID provider standing in for Google (social sign-in in the popup).
      command: 'exec node --import tsx e2e/support/openid-provider.ts',
      url: `http://127.0.0.1:${oidcPort}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        E2E_OIDC_PORT: String(oidcPort),
        E2E_OIDC_SECRET: oidcSecret,
        E2E_APP_URL: baseURL,
      },
    },
    {
      command: 'exec node --import tsx server/main.ts',
      url: `${baseURL}/readyz`,
      reuseExistingServer: false,
      timeout: 90_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: appServerEnv(port),
    },
    {
      // The second server: every real gateway configured, each provider a local stand-in.
      command: 'exec node --import tsx server/main.ts',
      url: `${gatewaysURL}/readyz`,
      reuseExistingServer: false,
      timeout: 90_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        ...appServerEnv(gatewaysPort),
        ...appStoreAppEnv(standIn('APPSTORE')),
        CRYPTOMUS_MERCHANT_ID: E2E_GATEWAY_KEYS.cryptomus.merchantId,
        CRYPTOMUS_PAYMENT_KEY: E2E_GATEWAY_KEYS.cryptomus.paymentKey,
        CRYPTOMUS_API_URL: standIn('CRYPTOMUS'),
        PAYPAL_CLIENT_ID: E2E_GATEWAY_KEYS.paypal.clientId,
        PAYPAL_CLIENT_SECRET: E2E_GATEWAY_KEYS.paypal.clientSecret,
        PAYPAL_WEBHOOK_ID: E2E_GATEWAY_KEYS.paypal.webhookId,
        PAYPAL_ENVIRONMENT: 'sandbox',
        PAYPAL_API_URL: standIn('PAYPAL'),
        STRIPE_SECRET_KEY: E2E_GATEWAY_KEYS.stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: E2E_GATEWAY_KEYS.stripe.webhookSecret,
        STRIPE_API_URL: standIn('STRIPE'),
        STRIPE_GOOGLE_PAY: 'true',
      },
    },
  ],
});
