import { describe, expect, it } from 'vitest';
import { serviceTestMode } from './test-services.ts';

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
    expect(serviceTestMode('TEST_REDIS_URL', env)).toBe(mode);
  });
});
