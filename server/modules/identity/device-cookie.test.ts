import { randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { TWO_FACTOR_REQUIRED } from '#shared/contracts/auth.ts';
import type { App } from '../../http/types.ts';
import { deriveKey } from '../../platform/crypto/secret-box.ts';
import { CREDENTIAL_LIMITS } from '../../platform/rate-limit/limits.ts';
import { createTestApp } from '../../test/test-app.ts';
import { describeWithRedis } from '../../test/test-services.ts';
import { createUser, TEST_PASSWORD } from '../../test/test-users.ts';
import { DEVICE_COOKIE_MAX_MS, deviceCookieValue, readDeviceCookie } from './device-cookie.ts';

// OWASP's device cookies: a stranger who fills an account's sign-in counter with wrong
// passwords locks out browsers that never signed in to it, not the owner's.

const SIGN_IN = '/api/public/v1/auth/sign-in';
const SECOND_STEP = '/api/public/v1/auth/sign-in/two-factor';
const WRONG = 'Wr0ng#guess!';
const LIMIT = CREDENTIAL_LIMITS.signInPerAccount.limit;
const DEVICE_LIMIT = CREDENTIAL_LIMITS.signInPerDevice.limit;

// Addresses of this run alone: a persistent TEST_REDIS_URL keeps earlier runs' per-IP counts.
const block = randomInt(256);
let addresses = 0;
const freshAddress = () => {
  addresses += 1;
  return `198.19.${block}.${addresses % 250}`;
};

interface Attempt {
  email: string;
  password: string;
  /** The device cookie's value the browser shows, if any. */
  device?: string | undefined;
  ip?: string;
}

function browser(app: App) {
  return async function signIn({ email, password, device, ip }: Attempt) {
    const response = await app.inject({
      method: 'POST',
      url: SIGN_IN,
      remoteAddress: ip ?? freshAddress(),
      headers: { 'x-requested-with': 'fetch', ...(device ? { cookie: `device=${device}` } : {}) },
      payload: { email, password },
    });
    const set = response.cookies.find((cookie) => cookie.name === 'device');
    return { status: response.statusCode, body: response.json(), device: set?.value, set };
  };
}

/** A stranger's wrong passwords from everywhere, until the account's counter is full. */
async function lockFromElsewhere(app: App, email: string) {
  const signIn = browser(app);
  for (let attempt = 0; attempt < LIMIT; attempt += 1) {
    expect((await signIn({ email, password: WRONG })).status).toBe(401);
  }
  expect((await signIn({ email, password: TEST_PASSWORD })).status).toBe(429);
}

function lockedOutStranger(app: App) {
  return async () => {
    const signIn = browser(app);
    const user = await createUser(app.db);
    const home = freshAddress();
    const first = await signIn({ email: user.email, password: TEST_PASSWORD, ip: home });
    expect(first.status).toBe(200);
    expect(first.set).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(first.set?.maxAge).toBeGreaterThan(300 * 86_400);

    await lockFromElsewhere(app, user.email);

    // The owner's browser, from its usual address or any other.
    const back = await signIn({ email: user.email, password: TEST_PASSWORD, device: first.device });
    expect(back.status).toBe(200);
    expect(back.body.user).toMatchObject({ id: user.id });
    // Each sign-in gives a new cookie, a new counter.
    expect(back.device).toBeDefined();
    expect(back.device).not.toBe(first.device);
    // Strangers are still locked out: the owner's success did not clear their counter.
    expect((await signIn({ email: user.email, password: TEST_PASSWORD })).status).toBe(429);
  };
}

describe('device cookies, counters in memory', async () => {
  const { app } = await createTestApp();
  const signIn = browser(app);

  it('let the owner in while a stranger keeps the account locked', lockedOutStranger(app));

  it('give no way past the lock when forged, altered, stale or of another account', async () => {
    const owner = await createUser(app.db);
    const other = await createUser(app.db);
    const own = await signIn({ email: owner.email, password: TEST_PASSWORD });
    const others = await signIn({ email: other.email, password: TEST_PASSWORD });
    const value = own.device ?? '';
    const [version, userId, issued, nonce, mac = ''] = value.split('.');
    await lockFromElsewhere(app, owner.email);

    // One bit of the MAC flipped (a swapped last character may change only unused bits).
    const macBytes = Buffer.from(mac, 'base64url');
    macBytes[0] = (macBytes[0] ?? 0) ^ 1;
    const flipped = macBytes.toString('base64url');
    const forgeries = {
      "another account's": others.device,
      'another account id, same signature': [version, other.id, issued, nonce, mac].join('.'),
      'another nonce, same signature': [version, userId, issued, 'x'.repeat(22), mac].join('.'),
      'an altered signature': [version, userId, issued, nonce, flipped].join('.'),
      'signed under another key': deviceCookieValue(randomBytes(32), owner.id),
      'older than a device cookie lives': deviceCookieValue(
        app.deviceCookieKey,
        owner.id,
        Date.now() - DEVICE_COOKIE_MAX_MS - 60_000,
      ),
      'not a device cookie': 'v1.garbage',
    };
    for (const [name, device] of Object.entries(forgeries)) {
      const answer = await signIn({ email: owner.email, password: TEST_PASSWORD, device });
      expect(answer.status, name).toBe(429);
    }
    // The real one still works.
    const real = await signIn({ email: owner.email, password: TEST_PASSWORD, device: value });
    expect(real.status).toBe(200);
  });

  it("cap a device cookie's own guesses, apart from the account's counter", async () => {
    const user = await createUser(app.db);
    const { device } = await signIn({ email: user.email, password: TEST_PASSWORD });
    for (let attempt = 0; attempt < DEVICE_LIMIT; attempt += 1) {
      expect((await signIn({ email: user.email, password: WRONG, device })).status).toBe(401);
    }
    // Locked itself, even with the right password …
    const locked = await signIn({ email: user.email, password: TEST_PASSWORD, device });
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({
      code: 'too_many_requests',
      errors_info: ['errors.too_many_requests'],
    });
    // … while its failures left the account's shared counter alone.
    expect((await signIn({ email: user.email, password: TEST_PASSWORD })).status).toBe(200);
  });

  it('come with the second step of a two-factor sign-in, and let its first step through', async () => {
    const secret = new Secret().base32;
    const code = () => new TOTP({ secret: Secret.fromBase32(secret), period: 30 }).generate();
    const user = await createUser(app.db, {
      twoFactorSecret: app.totpBox.seal(secret),
      twoFactorConfirmedAt: new Date(),
    });
    const first = await signIn({ email: user.email, password: TEST_PASSWORD });
    expect(first.body).toMatchObject({ code: TWO_FACTOR_REQUIRED });
    // No device cookie before the second factor is proved.
    expect(first.device).toBeUndefined();
    const second = await app.inject({
      method: 'POST',
      url: SECOND_STEP,
      remoteAddress: freshAddress(),
      headers: { 'x-requested-with': 'fetch' },
      payload: { challenge: first.body.challenge, code: code() },
    });
    expect(second.statusCode, second.body).toBe(200);
    const device = second.cookies.find((cookie) => cookie.name === 'device')?.value;
    expect(readDeviceCookie(app.deviceCookieKey, device)?.userId).toBe(user.id);

    await lockFromElsewhere(app, user.email);
    const back = await signIn({ email: user.email, password: TEST_PASSWORD, device });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ code: TWO_FACTOR_REQUIRED });
  });
});

describe('a device cookie value', () => {
  const key = deriveKey('k'.repeat(40), 'identity.device_cookie');

  it('names its account and a random nonce, and reads back only unaltered', () => {
    const value = deviceCookieValue(key, 42);
    expect(value).toMatch(/^v1\.42\.\d+\.[\w-]{22}\.[\w-]{43}$/);
    expect(readDeviceCookie(key, value)).toEqual({ userId: 42, nonce: value.split('.')[3] });
    expect(deviceCookieValue(key, 42)).not.toBe(value);
    expect(readDeviceCookie(key, undefined)).toBeUndefined();
    expect(readDeviceCookie(key, `${value}x`)).toBeUndefined();
    expect(readDeviceCookie(key, value.replace('v1.42.', 'v1.43.'))).toBeUndefined();
    expect(readDeviceCookie(deriveKey('k'.repeat(40), 'other'), value)).toBeUndefined();
  });
});

describeWithRedis('device cookies, counters in Redis', async (url) => {
  const { app } = await createTestApp({ REDIS_URL: url });
  it('let the owner in while a stranger keeps the account locked', lockedOutStranger(app));
});
