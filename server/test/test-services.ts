import { describe, it } from 'vitest';
import { serviceTestMode } from './service-rule.ts';

/**
 * Variables that point the suite at a real service, with an example value. The database is
 * not one of them: every test runs on PGlite, or on the PostgreSQL at TEST_DATABASE_URL
 * (server/test/global-setup.ts), and scripts/test.sh runs the suite both ways.
 */
const SERVICES = {
  TEST_REDIS_URL: 'redis://127.0.0.1:6390',
} as const;

export type TestService = keyof typeof SERVICES;

/** Declares tests that need the service at `variable`, by the rule of service-rule.ts. */
export function describeWithService(
  variable: TestService,
  name: string,
  body: (url: string) => void | Promise<void>,
): void {
  const url = process.env[variable];
  const mode = serviceTestMode([variable]);
  if (mode === 'run' && url) {
    describe(name, () => body(url));
  } else if (mode === 'fail') {
    describe(name, () => {
      it(`needs ${variable}`, () => {
        throw new Error(
          `${variable} is not set, so these tests cannot run (REQUIRE_TEST_SERVICES=1 or CI is)`,
        );
      });
    });
  } else {
    describe.skip(name, () => {
      it(`skipped: ${variable} is not set (e.g. ${SERVICES[variable]})`, () => {});
    });
  }
}

/** Tests that need a real Redis at TEST_REDIS_URL (shared counters, realtime fan-out). */
export function describeWithRedis(name: string, body: (url: string) => void | Promise<void>): void {
  describeWithService('TEST_REDIS_URL', name, body);
}
