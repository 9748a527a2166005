import { afterAll } from 'vitest';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import type { App } from '../http/types.ts';
import { freePort } from './server-process.ts';
import { TEST_QUEUE_TIMINGS } from './test-app.ts';
import { createTestDatabase } from './test-database.ts';

/**
 * The real app listening on a free port with APP_URL its own address, so that it is the
 * OpenID issuer a relying party (openid-client) discovers over real HTTP; closed after the
 * file. The durable queue runs (key rotation), no scheduled timer.
 */
export async function startIssuerApp(): Promise<{ app: App; issuer: string }> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const database = await createTestDatabase();
  const app = await buildApp(testConfig({ APP_URL: issuer }), {
    jobs: [],
    queue: TEST_QUEUE_TIMINGS,
    database,
  });
  await app.listen({ host: '127.0.0.1', port });
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  return { app, issuer };
}
