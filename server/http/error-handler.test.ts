import { type AddressInfo, connect } from 'node:net';
import multipart from '@fastify/multipart';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp } from '../test/test-app.ts';
import { AppError } from './app-error.ts';

const { app } = await createTestApp({}, (app) => {
  app.post(
    '/api/public/v1/test-echo',
    {
      schema: {
        body: z.object({
          email: z.string(),
          name: z.string().min(1),
          address: z.object({ city: z.string().max(5) }),
        }),
      },
    },
    async (request) => request.body,
  );
  app.get(
    '/api/public/v1/test-query',
    { schema: { querystring: z.object({ page: z.coerce.number().int().min(1) }) } },
    async (request) => request.query,
  );
  app.get('/api/public/v1/test-crash', async () => {
    throw new Error('database password is hunter2');
  });
  // As node-postgres fails while PostgreSQL restarts, wrapped by Drizzle.
  app.get('/api/public/v1/test-database-away', async () => {
    const cause = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    throw new Error('Failed query: select 1', { cause });
  });
  app.get('/api/public/v1/test-conflict', async () => {
    throw new AppError('conflict', { info: 'errors.email_taken' });
  });
  // As Fastify's plugins fail: an error that carries its HTTP status.
  app.get<{ Params: { status: string } }>('/api/public/v1/test-status/:status', async (request) => {
    throw Object.assign(new Error('from a plugin'), { statusCode: Number(request.params.status) });
  });
  // As a route declared `multipart` gets it (endpoint-routes.ts): the plugin in its scope.
  app.register(async (scope) => {
    await scope.register(multipart);
    scope.post('/api/public/v1/test-upload', async (request) => {
      const file = await request.file();
      return { name: file?.filename };
    });
  });
});

/** Sends raw bytes over a new connection; answers all that comes back until it closes. */
async function rawExchange(request: string): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString();
  });
  socket.on('error', () => {});
  socket.write(request);
  await new Promise((resolve) => socket.on('close', resolve));
  return received;
}

describe('the error envelope', () => {
  it('maps each invalid field to its messages as errors_validation', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/public/v1/test-echo',
      headers: { 'x-requested-with': 'fetch' },
      payload: { name: '', address: { city: 'Amsterdam' } },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code: 'validation_failed',
      errors_validation: {
        email: ['input_errors.field_is_required'],
        name: ['input_errors.field_is_required'],
        'address.city': ['input_errors.field_is_too_long'],
      },
    });
  });

  it('validates query strings the same way', async () => {
    const response = await app.inject({ url: '/api/public/v1/test-query?page=0' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors_validation).toEqual({ page: ['input_errors.field_is_invalid'] });
  });

  it('answers malformed JSON with 400 and errors_info', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/public/v1/test-echo',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'fetch' },
      payload: '{"email":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'bad_request', errors_info: ['errors.bad_request'] });
  });

  it('answers an unsupported content type with 415', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/public/v1/test-echo',
      headers: { 'content-type': 'application/x-unknown', 'x-requested-with': 'fetch' },
      payload: 'x',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe('unsupported_media_type');
  });

  it('answers a database that went away with 503 unavailable, to be tried again', async () => {
    const response = await app.inject({ url: '/api/public/v1/test-database-away' });
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe('unavailable');
    expect(response.body).not.toContain('administrator');
  });

  it('hides our own faults behind a 500 without a stack trace or message', async () => {
    const response = await app.inject({ url: '/api/public/v1/test-crash' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 'internal', errors_info: ['errors.internal'] });
    expect(response.body).not.toContain('hunter2');
    expect(response.body).not.toContain('at ');
  });

  it('turns an AppError into its status and message', async () => {
    const response = await app.inject({ url: '/api/public/v1/test-conflict' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ code: 'conflict', errors_info: ['errors.email_taken'] });
  });

  it.each(['/api/unknown', '/api/public/v1/nothing-here', '/api/dashboard/v1/users/x'])(
    'answers the unknown API path %s with a JSON 404',
    async (url) => {
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.json()).toEqual({ code: 'not_found', errors_info: ['errors.not_found'] });
    },
  );

  it('gives every response a request id, keeping a sane one from the proxy', async () => {
    const fresh = await app.inject({ url: '/healthz' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'lb-123' } });
    expect(kept.headers['x-request-id']).toBe('lb-123');
    const replaced = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'a b<c>' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a URL it cannot decode in the envelope, with a request id', async () => {
    const response = await app.inject({ url: '/api/%zz', headers: { 'x-request-id': 'lb-9' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'bad_request', errors_info: ['errors.bad_request'] });
    expect(response.headers['x-request-id']).toBe('lb-9');
    // No hook of ours runs for a URL Fastify cannot route: the headers must come anyway.
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const fresh = await app.inject({ url: '/api/%zz' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the 414 of a path parameter over its length limit, with a request id', async () => {
    const response = await app.inject({ url: `/api/public/v1/test-status/${'4'.repeat(200)}` });
    expect(response.statusCode).toBe(414);
    expect(response.json()).toEqual({ code: 'bad_request', errors_info: ['errors.bad_request'] });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    [405, 'bad_request'],
    [406, 'bad_request'],
    [408, 'bad_request'],
    [413, 'payload_too_large'],
    [415, 'unsupported_media_type'],
    [416, 'bad_request'],
    [429, 'too_many_requests'],
    [431, 'bad_request'],
  ])('keeps a client error %i of a plugin as it is, in the envelope (%s)', async (status, code) => {
    const response = await app.inject({ url: `/api/public/v1/test-status/${status}` });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ code, errors_info: [`errors.${code}`] });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a server error of a plugin as our 500, whatever its status', async () => {
    const response = await app.inject({ url: '/api/public/v1/test-status/502' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 'internal', errors_info: ['errors.internal'] });
  });

  it('answers a body over the limit with 413', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/public/v1/test-echo',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'fetch' },
      payload: JSON.stringify({ email: 'x'.repeat(1_100_000) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe('payload_too_large');
  });

  it("answers an upload that is not multipart with the multipart plugin's 406", async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/public/v1/test-upload',
      headers: { 'x-requested-with': 'fetch' },
      payload: { file: 'x' },
    });
    expect(response.statusCode).toBe(406);
    expect(response.json()).toEqual({ code: 'bad_request', errors_info: ['errors.bad_request'] });
  });

  it('answers a multipart body on a route that takes none with 415', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/public/v1/test-echo',
      headers: {
        'x-requested-with': 'fetch',
        'content-type': 'multipart/form-data; boundary=x',
      },
      payload: '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na\r\n--x--\r\n',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe('unsupported_media_type');
  });

  it('answers headers over the size limit with 431 in the envelope, before any route', async () => {
    const received = await rawExchange(
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(received).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(received).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
    expect(received.split('\r\n\r\n')[1]).toBe(
      '{"code":"bad_request","errors_info":["errors.bad_request"]}',
    );
  });

  it('answers bytes that are not HTTP with 400 in the envelope', async () => {
    const received = await rawExchange('HELLO THERE\r\n\r\n');
    expect(received).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(received).toContain('{"code":"bad_request","errors_info":["errors.bad_request"]}');
  });
});

describe('during a graceful shutdown', () => {
  it('finishes what runs and answers what follows 503 in the envelope', async () => {
    const { app: closing } = await createTestApp({}, (instance) => {
      instance.get('/api/public/v1/test-slow', async () => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return { done: true };
      });
    });
    await closing.listen({ port: 0, host: '127.0.0.1' });
    const { port } = closing.server.address() as AddressInfo;
    // A kept-alive connection busy when the shutdown begins, asking again once answered.
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let asked = false;
    socket.on('data', (chunk) => {
      received += chunk.toString();
      if (!asked && received.includes('{"done":true}')) {
        asked = true;
        // The load balancer's readiness check must learn of the drain as a 503 too.
        socket.write('GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n');
      }
    });
    socket.write('GET /api/public/v1/test-slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = closing.close();
    await new Promise((resolve) => socket.on('close', resolve));
    await closed;
    expect(received).toContain('{"done":true}');
    expect(received).toContain('HTTP/1.1 503');
    expect(received).toContain('{"code":"unavailable","errors_info":["errors.unavailable"]}');
  });
});
