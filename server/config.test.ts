import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, TEST_APP_SECRET, testConfig } from './config.ts';
import { loadAppKey } from './platform/crypto/app-key.ts';

describe('loadConfig', () => {
  it('falls back to the embedded defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      appUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      dataDir: './data',
      defaultLocale: 'en',
      locales: ['en', 'es', 'fr', 'nl', 'ru'],
      accountBasePath: '/account',
    });
    expect([...config.features].sort()).toEqual(
      ['auth', 'billing', 'family_sharing', 'logging', 'referral', 'users'].sort(),
    );
  });

  it('reads feature flags, locales and the account base path', () => {
    const config = loadConfig({
      FEATURES: 'billing, auth',
      LOCALES: 'fr,nl',
      DEFAULT_LOCALE: 'nl',
      ACCOUNT_BASE_PATH: '/my',
      PORT: '8080',
      DATABASE_URL: 'postgres://u:p@db:5432/vpn',
    });
    expect([...config.features]).toEqual(['billing', 'auth']);
    expect(config.locales).toEqual(['fr', 'nl']);
    expect(config.defaultLocale).toBe('nl');
    expect(config.accountBasePath).toBe('/my');
    expect(config.appUrl).toBe('http://localhost:8080');
    expect(config.databaseUrl).toBe('postgres://u:p@db:5432/vpn');
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['FEATURES', 'billing,teleport'],
    ['LOCALES', 'en,de'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['ACCOUNT_BASE_PATH', 'account'],
    ['LOG_LEVEL', 'loud'],
  ])('rejects %s=%s with a one-line message naming the variable', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(new RegExp(`^Invalid configuration: .*${name}`));
    expect(message).not.toContain('\n');
  });

  it.each([
    [{}, true],
    [{ NODE_ENV: 'development' }, true],
    [{ NODE_ENV: 'test' }, true],
    // The demo passwords are public: production seeds only when told to.
    [{ NODE_ENV: 'production' }, false],
    [{ NODE_ENV: 'production', SEED_DEMO: 'true' }, true],
    [{ NODE_ENV: 'development', SEED_DEMO: 'false' }, false],
    [{ NODE_ENV: 'production', SEED_DEMO: '' }, false],
  ])('seeds the demo data for %j: %s', (env, seeds) => {
    expect(loadConfig(env).seedDemo).toBe(seeds);
  });

  it('leaves npm start in development, so that its first run seeds the demo accounts', async () => {
    const { default: manifest } = await import('../package.json', { with: { type: 'json' } });
    expect(manifest.scripts.start).not.toMatch(/NODE_ENV/);
    expect(manifest.scripts.serve).not.toMatch(/NODE_ENV/);
  });

  describe('TRUST_PROXY', () => {
    /** Which of `hops` (address, position from the server) the setting believes. */
    const believed = (value: string | undefined, hops: [string, number][]) => {
      const trust = loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy;
      return hops.map(([address, hop]) => (trust ? trust(address, hop) : false));
    };

    it.each(['false', 'no', '0', ''])('believes no proxy for %j (and by default)', (value) => {
      expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(false);
      expect(loadConfig({}).trustProxy).toBe(false);
    });

    it('believes as many hops as counted, the nearest only from a private or loopback peer', () => {
      const hops: [string, number][] = [
        ['127.0.0.1', 0],
        ['::1', 0],
        ['10.1.2.3', 0],
        ['::ffff:192.168.0.9', 0],
        // A client connecting straight from the Internet with a forged header.
        ['203.0.113.9', 0],
        // Whatever the proxy was reached from (a CDN's edge, on a public address).
        ['198.51.100.4', 1],
        ['198.51.100.5', 2],
      ];
      expect(believed('1', hops)).toEqual([true, true, true, true, false, false, false]);
      expect(believed('2', hops)).toEqual([true, true, true, true, false, true, false]);
    });

    it('believes listed proxies (addresses, CIDRs, proxy-addr names) at any hop', () => {
      const hops: [string, number][] = [
        ['10.20.30.40', 0],
        ['127.0.0.1', 0],
        ['172.16.0.1', 0],
        ['10.0.0.9', 1],
        ['203.0.113.9', 0],
      ];
      expect(believed('10.0.0.0/8, 127.0.0.1', hops)).toEqual([true, true, false, true, false]);
      expect(believed('loopback,172.16.0.0/12', hops)).toEqual([false, true, true, false, false]);
    });

    it('believes every hop for true, as Fastify does', () => {
      expect(
        believed('true', [
          ['203.0.113.9', 0],
          ['198.51.100.4', 5],
        ]),
      ).toEqual([true, true]);
    });

    it.each(['banana', '10.0.0.0/33', '-1', '1.5', ',', '10.0.0.1;10.0.0.2'])(
      'refuses %j with one line saying what it may be',
      (value) => {
        expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
          new ConfigError(
            'Invalid configuration: TRUST_PROXY: must be false, a hop count (1: one load ' +
              'balancer in front), proxy addresses or CIDRs separated by commas ' +
              '(10.0.0.0/8,127.0.0.1), or true (believe every hop)',
          ),
        );
      },
    );
  });

  describe('WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS', () => {
    const webauthn = (env: Record<string, string>) => loadConfig(env).webauthn;

    it.each([
      [{}, { rpId: 'localhost', origins: ['http://localhost:3000'] }],
      [
        { APP_URL: 'https://vpn.example.com/' },
        { rpId: 'vpn.example.com', origins: ['https://vpn.example.com'] },
      ],
      // Browsers refuse an IP address as the relying party: the same machine by its name.
      [
        { APP_URL: 'http://127.0.0.1:4317' },
        { rpId: 'localhost', origins: ['http://localhost:4317'] },
      ],
      [
        { APP_URL: 'https://vpn.example.com', WEBAUTHN_RP_ID: 'Example.com' },
        { rpId: 'example.com', origins: ['https://vpn.example.com'] },
      ],
      [
        {
          APP_URL: 'https://vpn.example.com',
          WEBAUTHN_RP_ID: 'example.com',
          WEBAUTHN_ORIGINS: 'https://vpn.example.com, https://account.example.com/',
        },
        {
          rpId: 'example.com',
          origins: ['https://vpn.example.com', 'https://account.example.com'],
        },
      ],
    ])('reads %j as %j', (env, expected) => {
      expect(webauthn(env)).toEqual(expected);
    });

    it.each(['http://vpn.example.com', 'https://203.0.113.5'])(
      'leaves passkeys off for APP_URL=%s, where browsers offer none',
      (appUrl) => {
        expect(webauthn({ APP_URL: appUrl })).toBeUndefined();
      },
    );

    it.each([
      // Not the app's host, nor a domain it belongs to.
      [{ APP_URL: 'https://vpn.example.com', WEBAUTHN_RP_ID: 'evil.com' }, 'WEBAUTHN_RP_ID'],
      [{ APP_URL: 'https://vpn.example.com', WEBAUTHN_RP_ID: 'ample.com' }, 'WEBAUTHN_RP_ID'],
      [
        { APP_URL: 'https://vpn.example.com', WEBAUTHN_RP_ID: 'other.example.com' },
        'WEBAUTHN_RP_ID',
      ],
      // A bare top-level name, or no host name at all.
      [{ APP_URL: 'https://vpn.example.com', WEBAUTHN_RP_ID: 'com' }, 'WEBAUTHN_RP_ID'],
      [
        { APP_URL: 'https://vpn.example.com', WEBAUTHN_RP_ID: 'https://vpn.example.com' },
        'WEBAUTHN_RP_ID',
      ],
      [{ APP_URL: 'https://127.0.0.2', WEBAUTHN_RP_ID: '127.0.0.2' }, 'WEBAUTHN_RP_ID'],
      // Origins: https only (but localhost), origins only, and on the relying party.
      [
        { APP_URL: 'https://vpn.example.com', WEBAUTHN_ORIGINS: 'http://vpn.example.com' },
        'WEBAUTHN_ORIGINS',
      ],
      [
        { APP_URL: 'https://vpn.example.com', WEBAUTHN_ORIGINS: 'https://vpn.example.com/app' },
        'WEBAUTHN_ORIGINS',
      ],
      [
        { APP_URL: 'https://vpn.example.com', WEBAUTHN_ORIGINS: 'vpn.example.com' },
        'WEBAUTHN_ORIGINS',
      ],
      [
        { APP_URL: 'https://vpn.example.com', WEBAUTHN_ORIGINS: 'https://example.org' },
        'WEBAUTHN_ORIGINS',
      ],
      [
        { APP_URL: 'http://vpn.example.com', WEBAUTHN_RP_ID: 'vpn.example.com' },
        'WEBAUTHN_ORIGINS',
      ],
      [{ WEBAUTHN_ORIGINS: 'http://127.0.0.1:3000' }, 'WEBAUTHN_ORIGINS'],
      [{ WEBAUTHN_ORIGINS: ' , ' }, 'WEBAUTHN_ORIGINS'],
    ])('refuses %j at start-up with one line naming %s', (env, name) => {
      let error: unknown;
      try {
        loadConfig(env);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(new RegExp(`^Invalid configuration: ${name}: `));
      expect((error as Error).message).not.toContain('\n');
    });

    it('says what a relying party must be', () => {
      expect(() =>
        loadConfig({ APP_URL: 'https://vpn.example.com', WEBAUTHN_RP_ID: 'evil.com' }),
      ).toThrow(
        new ConfigError(
          'Invalid configuration: WEBAUTHN_RP_ID: must be the host of APP_URL ' +
            '(vpn.example.com) or a domain it belongs to, not evil.com',
        ),
      );
      expect(() =>
        loadConfig({
          APP_URL: 'https://vpn.example.com',
          WEBAUTHN_ORIGINS: 'http://vpn.example.com',
        }),
      ).toThrow(
        new ConfigError(
          'Invalid configuration: WEBAUTHN_ORIGINS: http://vpn.example.com must use https ' +
            '(plain http only for localhost and 127.0.0.1)',
        ),
      );
    });
  });

  it('requires the default locale to be one of the locales', () => {
    expect(() => loadConfig({ LOCALES: 'en,fr', DEFAULT_LOCALE: 'ru' })).toThrow(
      'DEFAULT_LOCALE: must be one of LOCALES',
    );
  });
});

describe('testConfig', () => {
  it('keeps everything of a test run out of ./data', async () => {
    const config = testConfig();
    expect(config).toMatchObject({
      env: 'test',
      dataDir: 'memory://',
      uploadsDir: 'memory://',
      appSecret: TEST_APP_SECRET,
      seedDemo: false,
    });
    // The key comes from the setting, not from a file written under a data folder.
    expect(await loadAppKey(config)).toBe(TEST_APP_SECRET);
  });

  it('lets a test choose otherwise', () => {
    expect(testConfig({ DATA_DIR: '/tmp/x', APP_SECRET: 'y'.repeat(32) })).toMatchObject({
      dataDir: '/tmp/x',
      uploadsDir: '/tmp/x/uploads',
      appSecret: 'y'.repeat(32),
    });
  });
});
