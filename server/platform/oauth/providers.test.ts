import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { OAuthProviders, providersFromConfig } from './providers.ts';

const applePem = (curve = 'P-256') =>
  generateKeyPairSync('ec', { namedCurve: curve })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();

const apple = (pem = applePem()) => ({
  OAUTH_APPLE_CLIENT_ID: 'com.example.vpn.web',
  OAUTH_APPLE_TEAM_ID: 'TEAM123456',
  OAUTH_APPLE_KEY_ID: 'KEY1234567',
  OAUTH_APPLE_PRIVATE_KEY: pem,
});

describe('providers from the environment', () => {
  it('switches on only the providers whose keys are set', async () => {
    expect(providersFromConfig(loadConfig({}))).toEqual([]);
    const google = loadConfig({ OAUTH_GOOGLE_CLIENT_ID: 'id', OAUTH_GOOGLE_CLIENT_SECRET: 's' });
    const registry = OAuthProviders.fromConfig(google);
    expect(await registry.list()).toMatchObject([
      { id: 'google', issuer: 'https://accounts.google.com', responseMode: 'query' },
    ]);
    expect(await registry.find('apple')).toBeUndefined();
    expect(await registry.find('facebook')).toBeUndefined();
  });

  it('reads the Apple key from one line with \\n escapes', () => {
    const pem = applePem();
    const [provider] = providersFromConfig(loadConfig(apple(pem.replace(/\n/g, '\\n'))));
    expect(provider).toMatchObject({
      id: 'apple',
      issuer: 'https://appleid.apple.com',
      responseMode: 'form_post',
      credentials: { kind: 'apple-jwt', privateKey: pem.trim() },
    });
  });

  it.each([
    [{ OAUTH_GOOGLE_CLIENT_ID: 'id' }, 'OAUTH_GOOGLE_CLIENT_ID'],
    [{ ...apple(), OAUTH_APPLE_KEY_ID: '' }, 'OAUTH_APPLE_CLIENT_ID'],
    [apple('not a key'), 'OAUTH_APPLE_PRIVATE_KEY'],
    [apple(applePem('P-384')), 'OAUTH_APPLE_PRIVATE_KEY'],
  ])('refuses half a provider or a wrong key (%#)', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration: ${variable}`));
  });
});
