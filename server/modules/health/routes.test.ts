import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import { createTestApp } from '../../test/test-app.ts';
import { createTestDatabase } from '../../test/test-database.ts';

const { app } = await createTestApp();

describe('health checks', () => {
  it('answers liveness', async () => {
    const response = await app.inject({ url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('is ready when the database answers', async () => {
    const response = await app.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'up' });
  });

  it('is not ready when the database is gone', async () => {
    const database = await createTestDatabase();
    const broken = await buildApp(testConfig(), { database });
    await database.close();
    const response = await broken.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', database: 'down' });
    await broken.close();
  });

  it('sends the security headers', async () => {
    const response = await app.inject({ url: '/healthz' });
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });
});
