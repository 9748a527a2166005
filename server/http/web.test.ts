import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/test-app.ts';

// A stand-in build output, so these tests do not depend on `vite build` having run.
const dist = await mkdtemp(join(tmpdir(), 'vpn-web-'));
await mkdir(join(dist, 'assets'));
await writeFile(
  join(dist, 'index.html'),
  '<html><head><title>VPN</title></head><body></body></html>',
);
await writeFile(join(dist, 'assets', 'main-abc123.js'), 'console.log(1)');
await writeFile(join(dist, 'humans.txt'), 'User-agent: *');
// The build's pre-compressed copies (vite.config.ts), the raw index's among them.
await writeFile(join(dist, 'index.html.gz'), 'gzip of the raw index');
await writeFile(join(dist, 'index.html.br'), 'brotli of the raw index');
await writeFile(join(dist, 'assets', 'main-abc123.js.gz'), 'gzip of main');
await writeFile(join(dist, 'assets', 'main-abc123.js.map'), '{"version":3}');

const { app } = await createTestApp({
  WEB_DIST_DIR: dist,
  DEFAULT_LOCALE: 'fr',
  LOCALES: 'en,fr',
  FEATURES: 'billing,auth',
});

describe('serving the web app', () => {
  it("keeps the popup sign-in page in its opener's context group, and isolates the rest", async () => {
    const page = await app.inject({ url: '/fr', headers: { accept: 'text/html' } });
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    const callback = await app.inject({ url: '/fr/oauth/callback?code=x&state=y' });
    expect(callback.headers['cross-origin-opener-policy']).toBe('unsafe-none');
  });

  it('redirects / to the default locale', async () => {
    const response = await app.inject({ url: '/' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/fr');
  });

  it.each(['/fr/signin', '/en/account/profile', '/r/abc', '/xx/unknown/path?x=1'])(
    'answers the screen path %s with index.html (history fallback)',
    async (url) => {
      const response = await app.inject({ url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<title>VPN</title>');
    },
  );

  it('embeds the runtime configuration as a JSON data block, not a script', async () => {
    const response = await app.inject({ url: '/fr/signin' });
    const match = response.body.match(
      /<script type="application\/json" id="app-config">(.*?)<\/script>/,
    );
    expect(JSON.parse(match?.[1] ?? 'null')).toEqual({
      defaultLocale: 'fr',
      locales: ['en', 'fr'],
      features: ['billing', 'auth'],
      accountBasePath: '/account',
      // The built-in realtime server, on the page's own origin (host null).
      realtime: { key: 'shieldline', host: null, port: null, tls: false, cluster: 'mt1' },
    });
  });

  it('serves hashed assets with a long immutable cache', async () => {
    const response = await app.inject({ url: '/assets/main-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.body).toBe('console.log(1)');
  });

  it('serves other build files with a short cache', async () => {
    const response = await app.inject({ url: '/humans.txt' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('keeps the 416 of a range past the end of a file, in the envelope', async () => {
    const response = await app.inject({ url: '/humans.txt', headers: { range: 'bytes=999-' } });
    expect(response.statusCode).toBe(416);
    expect(response.json()).toEqual({ code: 'bad_request', errors_info: ['errors.bad_request'] });
  });

  it('answers a missing asset with a 404, not the app', async () => {
    const response = await app.inject({ url: '/assets/gone-123.js' });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('not_found');
  });

  it('serves the pre-compressed copy of an asset to a browser that accepts it', async () => {
    const response = await app.inject({
      url: '/assets/main-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.body).toBe('gzip of main');
  });

  it.each([
    ['/index.html', {}],
    ['/index.html', { 'accept-encoding': 'br, gzip' }],
    ['/index.html.gz', {}],
    ['/index.html.br', { 'accept-encoding': 'br' }],
    ['/assets/main-abc123.js.map', {}],
  ])('does not serve %s (%j) as a file', async (url, headers) => {
    const response = await app.inject({ url, headers });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('not_found');
    expect(response.body).not.toContain('raw index');
  });

  it('answers an unknown API path with JSON even when HTML is accepted', async () => {
    const response = await app.inject({
      url: '/api/public/v1/nope',
      headers: { accept: 'text/html' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 'not_found', errors_info: ['errors.not_found'] });
  });

  it('answers a POST to a screen path with a JSON 404', async () => {
    const response = await app.inject({ method: 'POST', url: '/fr/signin' });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('not_found');
  });
});

describe('the API description', () => {
  it('publishes an OpenAPI document generated from the zod contracts', async () => {
    const response = await app.inject({ url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    const appConfig = document.paths['/api/public/v1/app-config'].get;
    expect(appConfig.responses['200'].content['application/json'].schema.properties).toHaveProperty(
      'defaultLocale',
    );
    expect(document.paths).toHaveProperty('/readyz');
  });

  it('serves a browsable UI', async () => {
    const response = await app.inject({ url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('swagger-ui');
  });

  it('answers the public configuration call', async () => {
    const response = await app.inject({ url: '/api/public/v1/app-config' });
    expect(response.json()).toMatchObject({ defaultLocale: 'fr', locales: ['en', 'fr'] });
  });
});
