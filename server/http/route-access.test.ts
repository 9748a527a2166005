import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import { createTestDatabase } from '../test/test-database.ts';

// Access is denied by default: a route that does not say who may call it stops the app.
describe('a route without declared access', () => {
  it('stops start-up, naming the route', async () => {
    const database = await createTestDatabase();
    const app = await buildApp(testConfig(), { database, jobs: [] });
    app.get('/api/public/v1/forgotten', async () => ({ open: true }));
    await expect(app.ready()).rejects.toThrow(
      'Routes without declared access: GET /api/public/v1/forgotten',
    );
    await app.close().catch(() => {});
    await database.close();
  });

  it('is listed with its access once declared', async () => {
    const database = await createTestDatabase();
    const app = await buildApp(testConfig(), { database, jobs: [] });
    app.get('/api/public/v1/remembered', { config: { access: 'public' } }, async () => ({}));
    await app.ready();
    expect(app.routeList).toContainEqual(
      expect.objectContaining({
        method: 'GET',
        url: '/api/public/v1/remembered',
        access: 'public',
      }),
    );
    await app.close();
    await database.close();
  });

  it('is enforced for a route added by hand as for a declared one', async () => {
    const database = await createTestDatabase();
    const app = await buildApp(testConfig(), { database, jobs: [] });
    app.get('/api/all/v1/by-hand', { config: { access: 'signed-in' } }, async () => ({ ok: true }));
    app.get('/by-hand-page', { config: { access: 'active' } }, async () => ({ ok: true }));
    await app.ready();
    expect((await app.inject({ url: '/api/all/v1/by-hand' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/by-hand-page' })).statusCode).toBe(401);
    await app.close();
    await database.close();
  });
});
