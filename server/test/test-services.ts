import { describe, inject, it } from 'vitest';
import { serviceTestMode } from './service-rule.ts';

/**
 * Variables that point the suite at a real service, with an example value. Every test runs
 * on PGlite, or on the PostgreSQL at TEST_DATABASE_URL (server/test/global-setup.ts), and
 * scripts/test.sh runs the suite both ways; only the few that need the server itself name
 * TEST_DATABASE_URL (describeWithPostgres).
 */
const SERVICES = {
  TEST_REDIS_URL: 'redis://127.0.0.1:6390',
  TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
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

/**
 * Tests that need the PostgreSQL server itself, not only a database on it (pg_dump, new
 * databases): they run when the suite does (TEST_DATABASE_URL). `npm test` runs the suite
 * on PGlite first with TEST_PGLITE_PASS=1, and that pass leaves them to the PostgreSQL one;
 * any other run without the server follows service-rule.ts (fails in CI, skips elsewhere).
 */
export function describeWithPostgres(name: string, body: (serverUrl: string) => void): void {
  const target = inject('testDatabase');
  if (target.kind === 'postgres') {
    describe(name, () => body(target.serverUrl));
  } else if (process.env.TEST_PGLITE_PASS === '1') {
    describe.skip(name, () => {
      it('skipped: the PGlite pass of npm test; its PostgreSQL pass runs these', () => {});
    });
  } else {
    describeWithService('TEST_DATABASE_URL', name, body);
  }
}
