import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../http/app-error.ts';
import { startTcpProxy } from '../../test/tcp-proxy.ts';
import { describeWithRedis, uniqueKey } from '../../test/test-redis.ts';
import { connectRedis } from '../redis/connect-redis.ts';
import { MemoryRateLimitStore } from './memory-store.ts';
import { normaliseKey, RateLimiter, type RateLimitRule, storageKey } from './rate-limiter.ts';
import { RATE_LIMIT_REDIS, REDIS_KEY_PREFIX, RedisRateLimitStore } from './redis-store.ts';
import type { RateLimitStore } from './store.ts';

const silentLog = { warn: () => {}, error: () => {} };

/** A wrong credential in these tests: the error limitFailures counts. */
class Wrong extends Error {}
const isFailure = (error: unknown) => error instanceof Wrong;

/** The error a consume threw, or undefined when it let the attempt through. */
async function refusal(promise: Promise<void>): Promise<AppError | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/** What every store must do, and the limiter on top of it; run once per store. */
function storeContract(getStore: () => RateLimitStore): void {
  describe('store', () => {
    it('counts hits within one window and keeps its end', async () => {
      const key = uniqueKey('count');
      const before = Date.now();
      const first = await getStore().hit(key, 60_000);
      const second = await getStore().hit(key, 60_000);
      const third = await getStore().hit(key, 60_000);
      expect([first.count, second.count, third.count]).toEqual([1, 2, 3]);
      expect(first.resetAt).toBeGreaterThan(before + 59_000);
      expect(first.resetAt).toBeLessThanOrEqual(Date.now() + 60_000);
      // A fixed window: later hits do not push its end out.
      expect(Math.abs(third.resetAt - first.resetAt)).toBeLessThan(50);
    });

    it('starts from zero once the window has ended', async () => {
      const key = uniqueKey('expire');
      await getStore().hit(key, 200);
      expect((await getStore().hit(key, 200)).count).toBe(2);
      await sleep(300);
      const fresh = await getStore().hit(key, 200);
      expect(fresh.count).toBe(1);
      expect(fresh.resetAt).toBeGreaterThan(Date.now());
    });

    it('keeps separate keys apart', async () => {
      const a = uniqueKey('a');
      const b = uniqueKey('b');
      await getStore().hit(a, 60_000);
      await getStore().hit(a, 60_000);
      expect((await getStore().hit(b, 60_000)).count).toBe(1);
      expect((await getStore().hit(a, 60_000)).count).toBe(3);
    });

    it('forgets a key on reset', async () => {
      const key = uniqueKey('reset');
      await getStore().hit(key, 60_000);
      await getStore().hit(key, 60_000);
      await getStore().reset(key);
      expect((await getStore().hit(key, 60_000)).count).toBe(1);
    });

    it('takes one hit back on undo, never below zero and never from an ended window', async () => {
      const key = uniqueKey('undo');
      await getStore().hit(key, 60_000);
      await getStore().hit(key, 60_000);
      await getStore().undo(key);
      expect((await getStore().peek(key))?.count).toBe(1);
      await getStore().undo(key);
      await getStore().undo(key);
      expect(await getStore().peek(key)).toBeUndefined();
      expect((await getStore().hit(key, 60_000)).count).toBe(1);
      // Undoing a key without a window leaves no counter behind.
      const none = uniqueKey('undo-none');
      await getStore().undo(none);
      expect(await getStore().peek(none)).toBeUndefined();
      const short = uniqueKey('undo-ended');
      await getStore().hit(short, 100);
      await sleep(150);
      await getStore().undo(short);
      expect((await getStore().hit(short, 60_000)).count).toBe(1);
    });

    it('counts simultaneous hits exactly once each', async () => {
      const key = uniqueKey('race');
      const hits = await Promise.all(Array.from({ length: 50 }, () => getStore().hit(key, 60_000)));
      expect(hits.map((hit) => hit.count).sort((x, y) => x - y)).toEqual(
        Array.from({ length: 50 }, (_, index) => index + 1),
      );
    });
  });

  describe('limiter', () => {
    const limiter = () => new RateLimiter(getStore(), silentLog);
    const rule = (overrides: Partial<RateLimitRule> = {}): RateLimitRule => ({
      name: 'test-rule',
      key: uniqueKey('client'),
      limit: 3,
      windowMs: 60_000,
      ...overrides,
    });

    it('lets the limit through, then refuses with too_many_requests and Retry-After', async () => {
      const limited = rule();
      for (let attempt = 0; attempt < 3; attempt++) {
        expect(await refusal(limiter().consume([limited]))).toBeUndefined();
      }
      const error = await refusal(limiter().consume([limited]));
      expect(error?.code).toBe('too_many_requests');
      expect(error?.statusCode).toBe(429);
      expect(error?.info).toEqual(['errors.too_many_requests']);
      const retryAfter = Number(error?.headers?.['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(59);
      expect(retryAfter).toBeLessThanOrEqual(60);
    });

    it('counts only failures with limitFailures', async () => {
      const limited = rule({ limit: 2 });
      const key = storageKey(limited.name, limited.key);
      const succeed = () => limiter().limitFailures([limited], async () => 'ok', isFailure);
      const fail = () =>
        limiter().limitFailures([limited], () => Promise.reject(new Wrong()), isFailure);
      // Successes, however many, give their slot back.
      for (let attempt = 0; attempt < 5; attempt++) expect(await succeed()).toBe('ok');
      expect((await getStore().peek(key))?.count ?? 0).toBe(0);
      await expect(fail()).rejects.toBeInstanceOf(Wrong);
      // An error that is not a failure (a bug, the database) gives its slot back too.
      await expect(
        limiter().limitFailures([limited], () => Promise.reject(new Error('db down')), isFailure),
      ).rejects.toThrow('db down');
      await expect(fail()).rejects.toBeInstanceOf(Wrong);
      expect((await getStore().peek(key))?.count).toBe(2);
      // Over the limit: refused without running the check, and the refusal is not counted.
      let ran = false;
      const refused = await refusal(
        limiter().limitFailures(
          [limited],
          async () => {
            ran = true;
          },
          isFailure,
        ),
      );
      expect(refused?.code).toBe('too_many_requests');
      expect(Number(refused?.headers?.['retry-after'])).toBeGreaterThan(0);
      expect(ran).toBe(false);
      expect((await getStore().peek(key))?.count).toBe(2);
    });

    it('lets at most the limit of parallel attempts be checked', async () => {
      const limited = rule({ limit: 5 });
      let checked = 0;
      const attempts = await Promise.allSettled(
        Array.from({ length: 30 }, () =>
          limiter().limitFailures(
            [limited],
            async () => {
              checked += 1;
              // The check takes time (argon2), during which the others arrive.
              await sleep(20);
              throw new Wrong();
            },
            isFailure,
          ),
        ),
      );
      const reasons = attempts.map((attempt) =>
        attempt.status === 'rejected' ? attempt.reason : undefined,
      );
      expect(checked).toBe(5);
      expect(reasons.filter((reason) => reason instanceof Wrong)).toHaveLength(5);
      expect(
        reasons.filter(
          (reason) => reason instanceof AppError && reason.code === 'too_many_requests',
        ),
      ).toHaveLength(25);
      // The refused attempts gave their slots back: the count is the failures.
      expect((await getStore().peek(storageKey(limited.name, limited.key)))?.count).toBe(5);
    });

    it('refuses when any of several rules is full, giving back the slots of all', async () => {
      const full = rule({ name: 'full', limit: 1 });
      const open = rule({ name: 'open', limit: 10 });
      await expect(
        limiter().limitFailures([full], () => Promise.reject(new Wrong()), isFailure),
      ).rejects.toBeInstanceOf(Wrong);
      const error = await refusal(limiter().limitFailures([full, open], async () => {}, isFailure));
      expect(error?.code).toBe('too_many_requests');
      expect(await getStore().peek(storageKey(open.name, open.key))).toBeUndefined();
      expect((await getStore().peek(storageKey(full.name, full.key)))?.count).toBe(1);
    });

    it('lets attempts through again after the window', async () => {
      const limited = rule({ limit: 1, windowMs: 200 });
      await limiter().consume([limited]);
      const error = await refusal(limiter().consume([limited]));
      expect(error?.headers?.['retry-after']).toBe('1');
      await sleep(300);
      expect(await refusal(limiter().consume([limited]))).toBeUndefined();
    });

    it('counts every rule, and waits for the longest broken one', async () => {
      const perIp = rule({ name: 'per-ip', limit: 1, windowMs: 10_000 });
      const perAccount = rule({ name: 'per-account', limit: 1, windowMs: 120_000 });
      const loose = rule({ name: 'loose', limit: 100 });
      await limiter().consume([perIp, perAccount, loose]);
      const error = await refusal(limiter().consume([perIp, perAccount, loose]));
      expect(Number(error?.headers?.['retry-after'])).toBeGreaterThan(100);
      await refusal(limiter().consume([perIp, perAccount, loose]));
      // Refused attempts still count against the rules that were not broken.
      const next = await getStore().hit(storageKey(loose.name, loose.key), loose.windowMs);
      expect(next.count).toBe(4);
    });

    it('keeps rules of one key apart by name', async () => {
      const key = uniqueKey('shared');
      await limiter().consume([rule({ name: 'sign-in', key, limit: 1 })]);
      expect(
        await refusal(limiter().consume([rule({ name: 'forgot', key, limit: 1 })])),
      ).toBeUndefined();
    });

    it('clears one counter on reset', async () => {
      const limited = rule({ limit: 1 });
      await limiter().consume([limited]);
      expect(await refusal(limiter().consume([limited]))).toBeDefined();
      await limiter().reset(limited.name, limited.key);
      expect(await refusal(limiter().consume([limited]))).toBeUndefined();
    });

    it('counts one e-mail however it is written', async () => {
      const email = `${uniqueKey('user')}@example.com`;
      await limiter().consume([rule({ key: email, limit: 1 })]);
      const error = await refusal(
        limiter().consume([rule({ key: ` ${email.toUpperCase()} `, limit: 1 })]),
      );
      expect(error?.code).toBe('too_many_requests');
    });
  });
}

describe('memory store', () => {
  const store = new MemoryRateLimitStore();
  afterAll(() => store.close());
  storeContract(() => store);

  it('sweeps ended windows out of memory', async () => {
    const own = new MemoryRateLimitStore({ sweepIntervalMs: 50 });
    await own.hit('short', 100);
    await own.hit('long', 60_000);
    expect(own.size).toBe(2);
    await sleep(250);
    expect(own.size).toBe(1);
    expect((await own.hit('long', 60_000)).count).toBe(2);
    await own.close();
    expect(own.size).toBe(0);
  });

  it('holds at most maxKeys, forgetting the oldest window first', async () => {
    const own = new MemoryRateLimitStore({ maxKeys: 3 });
    for (const key of ['a', 'b', 'c', 'd']) await own.hit(key, 60_000);
    expect(own.size).toBe(3);
    expect((await own.hit('d', 60_000)).count).toBe(2);
    expect((await own.hit('a', 60_000)).count).toBe(1);
    await own.close();
  });
});

describeWithRedis('Redis store', (url) => {
  let redis: Redis;
  let store: RedisRateLimitStore;
  beforeAll(async () => {
    redis = await connectRedis(url, RATE_LIMIT_REDIS);
    store = new RedisRateLimitStore(redis);
  });
  afterAll(() => store.close());
  storeContract(() => store);

  it('keeps each counter under rl: with the window as its expiry', async () => {
    const key = uniqueKey('ttl');
    await store.hit(key, 60_000);
    const ttl = await redis.pttl(`${REDIS_KEY_PREFIX}${key}`);
    expect(ttl).toBeGreaterThan(59_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('stores e-mails only as hashes', async () => {
    const email = `${uniqueKey('hashed')}@example.com`;
    await new RateLimiter(store, silentLog).consume([
      { name: 'sign-in-account', key: email, limit: 5, windowMs: 60_000 },
    ]);
    const stored = `${REDIS_KEY_PREFIX}${storageKey('sign-in-account', email)}`;
    expect(await redis.exists(stored)).toBe(1);
    expect(stored).toMatch(/^rl:sign-in-account:[\w-]{43}$/);
    const [, keys] = await redis.scan('0', 'MATCH', `*${email}*`, 'COUNT', 10_000);
    expect(keys).toEqual([]);
  });

  it('gives a counter without an expiry one window', async () => {
    const key = uniqueKey('no-ttl');
    await redis.set(`${REDIS_KEY_PREFIX}${key}`, 7);
    expect((await store.hit(key, 60_000)).count).toBe(8);
    expect(await redis.pttl(`${REDIS_KEY_PREFIX}${key}`)).toBeGreaterThan(59_000);
  });

  it('fails open, and fast, while Redis is away', async () => {
    const proxy = await startTcpProxy(url);
    const cut = new RedisRateLimitStore(await connectRedis(proxy.url, RATE_LIMIT_REDIS));
    const log = { warn: vi.fn(), error: vi.fn() };
    const limiter = new RateLimiter(cut, log);
    const limited = { name: 'outage', key: uniqueKey('outage'), limit: 1, windowMs: 60_000 };
    await limiter.consume([limited]);
    await proxy.stop();
    const started = Date.now();
    await limiter.consume([limited]);
    await limiter.reset(limited.name, limited.key);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ rule: 'outage' }),
      'rate limit store failed; allowed',
    );
    await cut.close();
  });
});

describe('RATE_LIMIT_SCALE', () => {
  it('multiplies every limit, for runs whose requests share one address', async () => {
    const limiter = new RateLimiter(new MemoryRateLimitStore(), silentLog, 3);
    const rule = { name: 'scaled', key: 'k', limit: 2, windowMs: 60_000 };
    for (let i = 0; i < 6; i++) await limiter.consume([rule]);
    await expect(limiter.consume([rule])).rejects.toMatchObject({ code: 'too_many_requests' });
  });
});

describe('within', () => {
  it('counts and says whether a hit is within the limit, refusing nothing', async () => {
    const limiter = new RateLimiter(new MemoryRateLimitStore(), silentLog);
    const rule = { name: 'first-only', key: 'k', limit: 1, windowMs: 60_000 };
    expect(await limiter.within(rule)).toBe(true);
    expect(await limiter.within(rule)).toBe(false);
    expect(await limiter.within({ ...rule, key: 'other' })).toBe(true);
  });
});

describe('connectRedis', () => {
  it('refuses an unreachable server without echoing the URL', async () => {
    const attempt = connectRedis('redis://:hunter2@127.0.0.1:1', RATE_LIMIT_REDIS);
    await expect(attempt).rejects.toThrow(/REDIS_URL/);
    await expect(attempt).rejects.not.toThrow(/hunter2/);
  });
});

describe('failing open', () => {
  const broken: RateLimitStore = {
    hit: () => Promise.reject(new Error('connection lost')),
    peek: () => Promise.reject(new Error('connection lost')),
    undo: () => Promise.reject(new Error('connection lost')),
    reset: () => Promise.reject(new Error('connection lost')),
    close: () => Promise.resolve(),
  };

  it('lets the attempt through and logs the failure', async () => {
    const log = { warn: vi.fn(), error: vi.fn() };
    const limiter = new RateLimiter(broken, log);
    await limiter.consume([{ name: 'sign-in-ip', key: '192.0.2.1', limit: 1, windowMs: 1_000 }]);
    await limiter.reset('sign-in-ip', '192.0.2.1');
    expect(
      await limiter.within({ name: 'miss', key: '192.0.2.1', limit: 1, windowMs: 1_000 }),
    ).toBe(true);
    expect(log.error).toHaveBeenCalledTimes(3);
    expect(JSON.stringify(log.error.mock.calls)).not.toContain('192.0.2.1');
  });

  it('runs a failures-only check while the store is down', async () => {
    const log = { warn: vi.fn(), error: vi.fn() };
    const limiter = new RateLimiter(broken, log);
    const rules = [{ name: 'password-check', key: '7', limit: 1, windowMs: 1_000 }];
    expect(await limiter.limitFailures(rules, async () => 'checked', isFailure)).toBe('checked');
    await expect(
      limiter.limitFailures(rules, () => Promise.reject(new Wrong()), isFailure),
    ).rejects.toBeInstanceOf(Wrong);
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ rule: 'password-check' }),
      'rate limit store failed; allowed',
    );
  });

  it('still applies the rules whose counters answered', async () => {
    const store = new MemoryRateLimitStore();
    const halfBroken: RateLimitStore = {
      hit: (key, windowMs) =>
        key.startsWith('down:') ? broken.hit(key, windowMs) : store.hit(key, windowMs),
      peek: (key) => store.peek(key),
      undo: (key) => store.undo(key),
      reset: (key) => store.reset(key),
      close: () => store.close(),
    };
    const limiter = new RateLimiter(halfBroken, silentLog);
    const rules = [
      { name: 'down', key: 'k', limit: 1, windowMs: 60_000 },
      { name: 'up', key: 'k', limit: 1, windowMs: 60_000 },
    ];
    await limiter.consume(rules);
    expect((await refusal(limiter.consume(rules)))?.code).toBe('too_many_requests');
    await halfBroken.close();
  });
});

describe('normaliseKey', () => {
  it.each([
    ['Alice@Example.COM ', 'alice@example.com'],
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::ff', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002::', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['64:ff9b:1:2::192.0.2.1', '64:ff9b:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['42', '42'],
  ])('%s counts as %s', (key, expected) => {
    expect(normaliseKey(key)).toBe(expected);
  });
});
