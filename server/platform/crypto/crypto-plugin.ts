import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { loadAppKey } from './app-key.ts';
import { deriveKey, SecretBox } from './secret-box.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Seals the two-factor seeds kept in the users table. */
    totpBox: SecretBox;
    /** Seals the social sign-in state cookie (state, PKCE verifier, nonce). */
    oauthStateBox: SecretBox;
    /** Seals the provider secrets kept in the oauth_providers table. */
    oauthProviderBox: SecretBox;
    /** Seals the payment gateways' keys kept in the gateway_settings table. */
    gatewaySettingsBox: SecretBox;
    /** Seals our OAuth clients' secrets (oauth_clients) and the OpenID signing keys. */
    oidcClientBox: SecretBox;
    oidcKeyBox: SecretBox;
    /** Seals a rendered message waiting in mail_outbox for another delivery attempt. */
    mailBox: SecretBox;
    /** Signs the OpenID provider's cookies. */
    oidcCookieKey: string;
    /** Signs the sign-in device cookies (identity/device-cookie.ts). */
    deviceCookieKey: Buffer;
  }
}

// Loads the app key once (APP_SECRET, or the generated key file) and decorates the app
// with one SecretBox per purpose.
export const cryptoPlugin = fp(
  async (app: FastifyInstance) => {
    const key = await loadAppKey(app.config);
    app.decorate('totpBox', new SecretBox(key, 'users.two_factor_secret'));
    app.decorate('oauthStateBox', new SecretBox(key, 'oauth.state_cookie'));
    app.decorate('oauthProviderBox', new SecretBox(key, 'oauth_providers.secret'));
    app.decorate('gatewaySettingsBox', new SecretBox(key, 'gateway_settings.secrets'));
    app.decorate('oidcClientBox', new SecretBox(key, 'oauth_clients.secret'));
    app.decorate('oidcKeyBox', new SecretBox(key, 'oidc_signing_keys.private_jwk'));
    app.decorate('mailBox', new SecretBox(key, 'mail_outbox.sealed_message'));
    app.decorate('oidcCookieKey', deriveKey(key, 'oidc.cookies').toString('base64url'));
    app.decorate('deviceCookieKey', deriveKey(key, 'identity.device_cookie'));
  },
  { name: 'crypto' },
);
