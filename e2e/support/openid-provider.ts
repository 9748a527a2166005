import { startTestOpenIdProvider } from '../../server/test/test-openid-provider.ts';

// A real OpenID provider standing in for Google in the Playwright run (started by
// playwright.config.ts before the app, which is configured with its issuer, client id and
// secret). Anyone may sign in: the login `nina` is nina@example.com, verified.
const port = Number(process.env.E2E_OIDC_PORT ?? 4320);
const appUrl = process.env.E2E_APP_URL ?? 'http://127.0.0.1:4317';

const provider = await startTestOpenIdProvider({
  port,
  clientSecret: process.env.E2E_OIDC_SECRET ?? 'e2e-client-secret',
  redirectUri: `${appUrl}/api/public/v1/oauth-client/callback/google`,
  anyone: true,
});

const stop = () => void provider.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
