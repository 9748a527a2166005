import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_MESSAGES } from '#shared/contracts/vpn-node.ts';
import { type ApiFailure, NodeApiClient, NodeApiError, retryAfterMs } from './api-client.ts';

// What each answer of the API means to the agent. A tiny server answers whatever the test
// put in `next`, and tells what it received.

let server: Server;
let baseUrl: string;
let next: { status: number; body: string; headers?: Record<string, string>; hang?: boolean };
let received: { method?: string; url?: string; authorization?: string; body: string };

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      received = {
        method: request.method,
        url: request.url,
        authorization: request.headers.authorization,
        body,
      };
      if (next.hang) return;
      response.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
      response.end(next.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const client = (timeoutMs = 2_000) =>
  new NodeApiClient({ baseUrl, token: 'token-0123456789abcdef', timeoutMs });
const PEERS = { version: 3, changed: true, peers: [], retired: false };

async function failureOf(call: Promise<unknown>): Promise<NodeApiError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(NodeApiError);
  return error as NodeApiError;
}

describe('NodeApiClient', () => {
  it('calls the contract paths with the bearer token and reads the answer', async () => {
    next = { status: 200, body: JSON.stringify(PEERS) };
    expect(await client().peers(2, 0)).toEqual(PEERS);
    expect(received).toMatchObject({
      method: 'GET',
      url: '/api/node/v1/peers?version=2',
      authorization: 'Bearer token-0123456789abcdef',
    });
    await client().peers(undefined, 0);
    expect(received.url).toBe('/api/node/v1/peers');

    next = { status: 200, body: JSON.stringify({ acked_seq: 4 }) };
    const report = { stream: '9b2f3c4e-7d41-4c1a-9a57-2f3e0c1d2b3a', reports: [] };
    expect(await client().report(report)).toEqual({ acked_seq: 4 });
    expect(received).toMatchObject({ method: 'POST', url: '/api/node/v1/report' });
    expect(JSON.parse(received.body)).toEqual(report);
  });

  const envelope = (code: string, info?: string[]) =>
    JSON.stringify({ code, ...(info ? { errors_info: info } : {}) });
  it.each<{ name: string; status: number; body: string; failure: ApiFailure }>([
    { name: '401', status: 401, body: envelope('unauthenticated'), failure: 'unauthorized' },
    { name: '403', status: 403, body: envelope('forbidden'), failure: 'forbidden' },
    {
      name: '409 node.key_mismatch',
      status: 409,
      body: envelope('conflict', [NODE_MESSAGES.keyMismatch]),
      failure: 'key-mismatch',
    },
    { name: 'another 409', status: 409, body: envelope('conflict'), failure: 'rejected' },
    { name: '422', status: 422, body: envelope('validation_failed'), failure: 'rejected' },
    { name: '503', status: 503, body: envelope('unavailable'), failure: 'unavailable' },
    { name: '502 from a proxy, in HTML', status: 502, body: '<html>', failure: 'unavailable' },
    {
      name: '200 not of the contract',
      status: 200,
      body: '{"version":"x"}',
      failure: 'unavailable',
    },
  ])('takes $name as $failure', async ({ status, body, failure }) => {
    next = { status, body };
    expect((await failureOf(client().peers(undefined, 0))).failure).toBe(failure);
  });

  it('passes on the wait a 429 asks for', async () => {
    next = { status: 429, body: envelope('too_many_requests'), headers: { 'retry-after': '7' } };
    const error = await failureOf(client().peers(undefined, 0));
    expect(error.failure).toBe('rate-limited');
    expect(error.retryAfterMs).toBe(7_000);
  });

  it('takes no answer in time, and no server at all, as unavailable', async () => {
    next = { status: 200, body: '', hang: true };
    expect((await failureOf(client(300).peers(undefined, 0))).failure).toBe('unavailable');
    const nobody = new NodeApiClient({ baseUrl: 'http://127.0.0.1:1', token: 'x'.repeat(16) });
    const refused = await failureOf(nobody.peers(undefined, 0));
    expect(refused.failure).toBe('unavailable');
    expect((refused.cause as Error).message).toBe('fetch failed');
  });

  it('waits a long poll out before its timeout starts', async () => {
    next = { status: 200, body: JSON.stringify(PEERS), hang: true };
    const started = Date.now();
    await failureOf(client(300).peers(3, 400));
    expect(Date.now() - started).toBeGreaterThanOrEqual(650);
  });
});

describe('retryAfterMs', () => {
  it.each([
    [null, undefined],
    ['12', 12_000],
    ['Sat, 21 Nov 2026 10:00:30 GMT', 30_000],
    ['Sat, 21 Nov 2026 09:59:00 GMT', 0],
    ['soon', undefined],
  ])('%s → %s ms', (header, ms) => {
    expect(retryAfterMs(header, Date.parse('2026-11-21T10:00:00Z'))).toBe(ms);
  });
});
