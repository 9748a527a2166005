import { describe, it } from 'vitest';

/**
 * Variables that point the suite at a real service, with an example value. The database is
 * not one of them: every test runs on PGlite, or on the PostgreSQL at TEST_DATABASE_URL
 * (server/test/global-setup.ts), and scripts/test.sh runs the suite both ways.
 */
const SERVICES = {
  TEST_REDIS_URL: 'redis://127.0.0.1:6390',
} as const;

export type TestService = keyof typeof SERVICES;

/**
 * What becomes of tests that need the service at `variable`: with it set they run against
 * it. Without it they fail where services are required — `npm test` (scripts/test.sh starts
 * them and sets REQUIRE_TEST_SERVICES=1) and any CI — since a skip there would let the
 * behaviour go untested without anyone noticing; elsewhere (a laptop without Redis) they
 * are skipped and say why.
 */
export function serviceTestMode(
  variable: TestService,
  env: Record<string, string | undefined> = process.env,
): 'run' | 'fail' | 'skip' {
  if (env[variable]) return 'run';
  return env.REQUIRE_TEST_SERVICES === '1' || env.CI ? 'fail' : 'skip';
}

/** Declares tests that need the service at `variable`, by the rule of serviceTestMode. */
export function describeWithService(
  variable: TestService,
  name: string,
  body: (url: string) => void | Promise<void>,
): void {
  const url = process.env[variable];
  const mode = serviceTestMode(variable);
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
