import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CancelledError } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, isCancelled } from './api-error.ts';
import { api, withQuery } from './client.ts';

interface Seen {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: string;
}

// A real HTTP server on loopback: the client is tested through fetch itself, not a mock.
let server: Server;
let base = '';
let lastSeen: Seen | undefined;

function reply(res: ServerResponse, status: number, body: string, type = 'application/json') {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      lastSeen = { method: req.method, url: req.url, headers: req.headers, body };
      const path = req.url?.split('?')[0];
      if (path === '/echo') return reply(res, 200, JSON.stringify({ ok: true }));
      if (path === '/empty') return reply(res, 204, '');
      if (path === '/text') return reply(res, 200, 'code-1\ncode-2', 'text/plain');
      if (path === '/invalid') {
        const envelope = {
          code: 'validation_failed',
          errors_validation: { email: ['input_errors.email_is_incorrect', 'second'] },
        };
        return reply(res, 422, JSON.stringify(envelope));
      }
      if (path === '/missing') {
        return reply(res, 404, JSON.stringify({ code: 'not_found', errors_info: ['errors.x'] }));
      }
      if (path === '/html-500') return reply(res, 500, '<h1>oops</h1>', 'text/html');
      if (path === '/html-502') return reply(res, 502, '<h1>bad gateway</h1>', 'text/html');
      if (path === '/html-200') return reply(res, 200, '<!doctype html>', 'text/html');
      if (path === '/slow') {
        setTimeout(() => reply(res, 200, '{}'), 2_000).unref();
        return;
      }
      reply(res, 500, '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the request to fail');
}

describe('api client', () => {
  it('sends GET with the query and the CSRF header, and reads JSON', async () => {
    const answer = await api.get<{ ok: boolean }>(`${base}/echo`, {
      query: { page: 2, q: 'a b', skip: undefined, none: null, ids: [1, 2] },
    });
    expect(answer).toEqual({ ok: true });
    expect(lastSeen?.method).toBe('GET');
    expect(lastSeen?.url).toBe('/echo?page=2&q=a+b&ids=1&ids=2');
    expect(lastSeen?.headers['x-requested-with']).toBe('fetch');
  });

  it('posts a plain object as JSON', async () => {
    await api.post(`${base}/echo`, { name: 'Ann' });
    expect(lastSeen?.method).toBe('POST');
    expect(lastSeen?.headers['content-type']).toBe('application/json');
    expect(lastSeen?.headers['x-requested-with']).toBe('fetch');
    expect(JSON.parse(lastSeen?.body ?? '')).toEqual({ name: 'Ann' });
  });

  it('posts without a body when none is given', async () => {
    await api.post(`${base}/echo`);
    expect(lastSeen?.headers['content-type']).toBeUndefined();
    expect(lastSeen?.body).toBe('');
  });

  it('passes FormData through as multipart', async () => {
    const form = new FormData();
    form.set('photo', new Blob(['png-bytes'], { type: 'image/png' }), 'me.png');
    await api.post(`${base}/echo`, form);
    expect(lastSeen?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(lastSeen?.body).toContain('png-bytes');
  });

  it('gives undefined for an empty answer and text when asked', async () => {
    expect(await api.post(`${base}/empty`)).toBeUndefined();
    expect(await api.get(`${base}/text`, { responseType: 'text' })).toBe('code-1\ncode-2');
  });

  it('turns an error envelope into an ApiError', async () => {
    const invalid = await failure(api.post(`${base}/invalid`, {}));
    expect(invalid).toBeInstanceOf(ApiError);
    expect(invalid).toMatchObject({
      status: 422,
      code: 'validation_failed',
      validation: { email: ['input_errors.email_is_incorrect', 'second'] },
      info: [],
    });
    const missing = await failure(api.get(`${base}/missing`));
    expect(missing).toMatchObject({ status: 404, code: 'not_found', info: ['errors.x'] });
    expect((missing as ApiError).messageKey).toBe('errors.x');
  });

  it('treats a body that is not the envelope as the server failing', async () => {
    expect(await failure(api.get(`${base}/html-500`))).toMatchObject({
      status: 500,
      code: 'internal',
    });
    expect(await failure(api.get(`${base}/html-502`))).toMatchObject({ code: 'unavailable' });
    expect(await failure(api.get(`${base}/html-200`))).toMatchObject({ code: 'internal' });
  });

  it('reports a failed connection as code network', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(api.get(`http://127.0.0.1:${port}/x`));
    expect(error).toMatchObject({ status: 0, code: 'network' });
    expect((error as ApiError).messageKey).toBe('ui.request_error.network');
  });

  it('gives up after timeoutMs with code timeout', async () => {
    const error = await failure(api.get(`${base}/slow`, { timeoutMs: 100 }));
    expect(error).toMatchObject({ code: 'timeout' });
    expect(isCancelled(error)).toBe(false);
  });

  it('lets a cancelled request fail as a cancellation, also with a timeout set', async () => {
    const controller = new AbortController();
    const pending = api.get(`${base}/slow`, { signal: controller.signal, timeoutMs: 5_000 });
    controller.abort();
    const error = await failure(pending);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(isCancelled(error)).toBe(true);
  });
});

describe('helpers', () => {
  it('appends a query to a path that already has one', () => {
    expect(withQuery('/a?x=1', { y: true })).toBe('/a?x=1&y=true');
    expect(withQuery('/a', {})).toBe('/a');
  });

  it('knows the cancellations of fetch and of TanStack Query', () => {
    expect(isCancelled(new DOMException('stop', 'AbortError'))).toBe(true);
    expect(isCancelled(new CancelledError())).toBe(true);
    expect(isCancelled(new ApiError(500, 'internal'))).toBe(false);
    expect(isCancelled(new Error('boom'))).toBe(false);
    expect(isCancelled(undefined)).toBe(false);
  });
});
