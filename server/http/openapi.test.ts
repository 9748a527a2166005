import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/test-app.ts';

// The OpenAPI document comes from the endpoint declarations: every declared route is in it,
// with its summary and its access.
const { app } = await createTestApp();

describe('the OpenAPI document', () => {
  it('lists every declared endpoint with its summary and who may call it', async () => {
    const answer = await app.inject({ url: '/api/docs/json' });
    expect(answer.statusCode).toBe(200);
    const paths = answer.json().paths as Record<
      string,
      Record<string, { summary?: string; description?: string }>
    >;
    // Fastify adds a HEAD beside each GET; the document names the GET.
    const declared = app.routeList.filter(
      (route) => route.config?.endpoint && route.method !== 'HEAD',
    );
    expect(declared.length).toBeGreaterThan(70);
    for (const route of declared) {
      const url = route.url.replace(/:([A-Za-z_]+)/g, '{$1}');
      const operation = paths[url]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.url}`).toBeDefined();
      expect(operation?.summary).toBe(route.config?.endpoint?.summary);
      expect(operation?.description).toMatch(/^Access: /);
    }
  });
});
