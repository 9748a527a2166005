import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import {
  googleSettings,
  mergeProviders,
  OAuthProviders,
  providersFromConfig,
} from './providers.ts';

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

describe('the database over the environment', () => {
  const fromEnv = providersFromConfig(
    loadConfig({ OAUTH_GOOGLE_CLIENT_ID: 'env', OAUTH_GOOGLE_CLIENT_SECRET: 's', ...apple() }),
  );
  const stored = googleSettings({
    issuer: 'https://id.example',
    clientId: 'db',
    clientSecret: 'x',
  });

  it.each([
    ['nothing stored: the environment', {}, ['google:env', 'apple:com.example.vpn.web']],
    ['a row replaces its provider', { google: stored }, ['google:db', 'apple:com.example.vpn.web']],
    ['an off row hides its provider', { apple: null }, ['google:env']],
    ['both off', { google: null, apple: null }, []],
  ])('%s', (_case, overrides, expected) => {
    const merged = mergeProviders(fromEnv, overrides);
    expect(merged.map((provider) => `${provider.id}:${provider.clientId}`)).toEqual(expected);
  });

  it('adds a provider the environment lacks, in the usual order', () => {
    const merged = mergeProviders(fromEnv.slice(1), { google: stored });
    expect(merged.map((provider) => provider.id)).toEqual(['google', 'apple']);
  });

  it('reads the store on every call, so edits need no restart', async () => {
    let overrides = {};
    const registry = OAuthProviders.fromConfigAndStore(loadConfig({}), async () => overrides);
    expect(await registry.list()).toEqual([]);
    overrides = { google: stored };
    expect(await registry.find('google')).toMatchObject({ clientId: 'db' });
  });
});
