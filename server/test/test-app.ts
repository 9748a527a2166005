import { afterAll } from 'vitest';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { App } from '../http/types.ts';
import { createTestDatabase } from './test-database.ts';

export interface TestApp {
  app: App;
  database: DatabaseHandle;
}

/**
 * Builds the real app on a fresh test database, closed after the file's tests. Extra routes
 * can be added by `prepare` before the app is ready.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  prepare?: (app: App) => void | Promise<void>,
): Promise<TestApp> {
  const database = await createTestDatabase();
  const app = await buildApp(testConfig(env), { database });
  await prepare?.(app);
  await app.ready();
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  return { app, database };
}
