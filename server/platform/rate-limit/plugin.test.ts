import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import type { App } from '../../http/types.ts';
import { startTcpProxy } from '../../test/tcp-proxy.ts';
import { createTestApp } from '../../test/test-app.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { describeWithRedis, uniqueKey } from '../../test/test-redis.ts';
import { RateLimiter } from './rate-limiter.ts';

// One app on REDIS_URL holds seven connections: the rate limiter's, the realtime server's
// commands and subscriber, the VPN peer signal's (server/modules/vpn/peer-signal.ts) and the
// public pages' purge (server/modules/site/site-purge.ts), each a command and a subscriber.
const REDIS_CONNECTIONS = 7;

const ROUTE = '/api/public/v1/test-rate-limit';
const LIMIT = 3;

/** A stand-in for a credential endpoint: LIMIT attempts per key a minute. */
function limitedRoute(app: App): void {
  const options = {
    schema: { body: z.object({ key: z.string() }) },
    config: { access: 'public' },
  } as const;
  app.post(ROUTE, options, async (request) => {
    await app.rateLimiter.consume([
      { name: 'test-route', key: request.body.key, limit: LIMIT, windowMs: 60_000 },
    ]);
    return { ok: true };
  });
}

const attempt = (app: App, key: string) =>
  app.inject({
    method: 'POST',
    url: ROUTE,
    headers: { 'x-requested-with': 'fetch' },
    payload: { key },
  });

function expectTooManyRequests(response: Awaited<ReturnType<typeof attempt>>): void {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual({
    code: 'too_many_requests',
    errors_info: ['errors.too_many_requests'],
  });
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(59);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('without REDIS_URL', async () => {
  const { app } = await createTestApp({}, limitedRoute);
  const { app: other } = await createTestApp({}, limitedRoute);

  it('decorates the app with a limiter', () => {
    expect(app.rateLimiter).toBeInstanceOf(RateLimiter);
  });

  it('answers 429 with the envelope and Retry-After once over the limit', async () => {
    const key = uniqueKey('memory');
    for (let count = 1; count <= LIMIT; count++) {
      expect((await attempt(app, key)).statusCode).toBe(200);
    }
    expectTooManyRequests(await attempt(app, key));
  });

  it('counts in each process alone', async () => {
    const key = uniqueKey('single-node');
    for (let count = 1; count <= LIMIT; count++) await attempt(app, key);
    expect((await attempt(other, key)).statusCode).toBe(200);
  });
});

describeWithRedis('with REDIS_URL', async (url) => {
  // Two API processes behind a load balancer, as far as the counters can tell.
  const { app: first } = await createTestApp({ REDIS_URL: url }, limitedRoute);
  const { app: second } = await createTestApp({ REDIS_URL: url }, limitedRoute);

  it('answers 429 with the envelope and Retry-After once over the limit', async () => {
    const key = uniqueKey('redis');
    for (let count = 1; count <= LIMIT; count++) {
      expect((await attempt(first, key)).statusCode).toBe(200);
    }
    expectTooManyRequests(await attempt(first, key));
  });

  it('shares one counter between app instances (scale-out)', async () => {
    const key = uniqueKey('shared');
    const answers: number[] = [];
    for (const app of [first, second, first, second, first]) {
      answers.push((await attempt(app, key)).statusCode);
    }
    expect(answers).toEqual([200, 200, 200, 429, 429]);
    expectTooManyRequests(await attempt(second, key));
  });

  describe('when Redis goes away', () => {
    let database: DatabaseHandle;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(() => database.close());

    it('lets attempts through, and closes its connection with the app', async () => {
      const proxy = await startTcpProxy(url);
      const app = await buildApp(testConfig({ REDIS_URL: proxy.url }), { database });
      limitedRoute(app);
      await app.ready();
      const key = uniqueKey('outage');
      for (let count = 1; count <= LIMIT; count++) await attempt(app, key);
      expect((await attempt(app, key)).statusCode).toBe(429);
      expect(proxy.connections()).toBe(REDIS_CONNECTIONS);
      await proxy.stop();
      expect((await attempt(app, key)).statusCode).toBe(200);
      await app.close();
    });

    it('connects at start-up, closing with the app', async () => {
      const proxy = await startTcpProxy(url);
      const app = await buildApp(testConfig({ REDIS_URL: proxy.url }), { database });
      await app.ready();
      expect(proxy.connections()).toBe(REDIS_CONNECTIONS);
      await app.close();
      await expect.poll(() => proxy.connections()).toBe(0);
      await proxy.stop();
    });
  });
});

describe('an unreachable REDIS_URL', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('stops start-up with a message naming the variable', async () => {
    await expect(
      buildApp(testConfig({ REDIS_URL: 'redis://127.0.0.1:1' }), { database }),
    ).rejects.toThrow(/REDIS_URL/);
  });
});
