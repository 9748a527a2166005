import { afterAll } from 'vitest';
import { type AppDependencies, buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { publicRoutes } from '../http/route-access.ts';
import type { App } from '../http/types.ts';
import { createTestDatabase } from './test-database.ts';

export interface TestApp {
  app: App;
  database: DatabaseHandle;
}

/** Durable jobs in tests: a due job, a retry or a schedule's tick is taken within ~0.5 s. */
export const TEST_QUEUE_TIMINGS = {
  pollingIntervalSeconds: 0.5,
  cronMonitorIntervalSeconds: 1,
  cronWorkerIntervalSeconds: 1,
  stopTimeoutMs: 2_000,
} as const;

/** What a test may hand buildApp besides its database. */
export type TestAppDependencies = Omit<AppDependencies, 'database'>;

/**
 * Builds the real app on a fresh test database, closed after the file's tests. Extra routes
 * can be added by `prepare` before the app is ready; they are public (route-access.ts).
 *
 * No scheduled job runs unless `deps.jobs` names it: a job firing in a slow file would race
 * the test that calls the same work explicitly (the hourly account purge).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  prepare?: (app: App) => void | Promise<void>,
  deps: TestAppDependencies = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const app = await buildApp(testConfig(env), {
    jobs: [],
    queue: TEST_QUEUE_TIMINGS,
    // A node's peers poll with nothing new answers in a second, not 25 s.
    vpn: { pollWaitMs: 1_000 },
    ...deps,
    database,
  });
  if (prepare) {
    await app.register(async (scope) => {
      publicRoutes(scope);
      await prepare(scope as App);
    });
  }
  await app.ready();
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  return { app, database };
}
