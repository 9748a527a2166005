import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import { CONNECT_TIMEOUT_MS, openDatabase } from '../../db/client.ts';
import { startSilentServer } from '../../test/silent-server.ts';
import { createTestApp } from '../../test/test-app.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { READINESS_TIMEOUT_MS } from './routes.ts';

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

  it('answers 503 within its time limit when PostgreSQL never answers', async () => {
    const silent = await startSilentServer();
    // The pool's own connection timeout is longer: the readiness limit must act first.
    expect(READINESS_TIMEOUT_MS).toBeLessThan(CONNECT_TIMEOUT_MS);
    const database = await openDatabase({ url: silent.url });
    const blackholed = await buildApp(testConfig(), { database });
    try {
      // Ready once the job queue's first start has given up (the pool's timeout).
      await blackholed.ready();
      const started = performance.now();
      const response = await blackholed.inject({ url: '/readyz' });
      const took = performance.now() - started;
      // The readiness check reached the server (the job queue's start tries its own).
      expect(silent.accepted()).toBeGreaterThanOrEqual(1);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'unavailable', database: 'down' });
      expect(took).toBeGreaterThanOrEqual(READINESS_TIMEOUT_MS - 50);
      // Answered by our limit, before the pool's own timeout would have answered the same.
      expect(took).toBeLessThan(CONNECT_TIMEOUT_MS);
    } finally {
      await blackholed.close();
      await silent.close();
      await database.close();
    }
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
