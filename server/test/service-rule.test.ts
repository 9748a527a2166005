import { describe, expect, it } from 'vitest';
import { servicesRequired, serviceTestMode } from './service-rule.ts';

describe('tests that need a service', () => {
  it.each([
    [{ TEST_REDIS_URL: 'redis://127.0.0.1:6390' }, 'run'],
    [{ TEST_REDIS_URL: 'redis://127.0.0.1:6390', REQUIRE_TEST_SERVICES: '1' }, 'run'],
    [{}, 'skip'],
    [{ TEST_REDIS_URL: '' }, 'skip'],
    [{ REQUIRE_TEST_SERVICES: '0' }, 'skip'],
    // npm test (scripts/test.sh) and CI: a missing service fails instead of skipping.
    [{ REQUIRE_TEST_SERVICES: '1' }, 'fail'],
    [{ REQUIRE_TEST_SERVICES: '1', TEST_REDIS_URL: '' }, 'fail'],
    [{ CI: 'true' }, 'fail'],
  ])('with %j they %s', (env, mode) => {
    expect(serviceTestMode(['TEST_REDIS_URL'], env)).toBe(mode);
  });

  it('needs every service a test names', () => {
    const both = ['TEST_DATABASE_URL', 'TEST_REDIS_URL'];
    const redisOnly = { TEST_REDIS_URL: 'redis://127.0.0.1:6390' };
    expect(serviceTestMode(both, redisOnly)).toBe('skip');
    expect(serviceTestMode(both, { ...redisOnly, REQUIRE_TEST_SERVICES: '1' })).toBe('fail');
    expect(serviceTestMode(both, { ...redisOnly, TEST_DATABASE_URL: 'postgres://x/y' })).toBe(
      'run',
    );
  });

  // The WireGuard journey needs root and tools, not a variable: a run that has its services
  // (TEST_DATABASE_URL set) must still fail without them, never skip.
  it('says when every service and tool is required, services present or not', () => {
    expect(
      servicesRequired({ REQUIRE_TEST_SERVICES: '1', TEST_DATABASE_URL: 'postgres://x/y' }),
    ).toBe(true);
    expect(servicesRequired({ CI: 'true' })).toBe(true);
    expect(servicesRequired({ TEST_DATABASE_URL: 'postgres://x/y' })).toBe(false);
  });
});
