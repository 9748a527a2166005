import { randomUUID } from 'node:crypto';
import Pusher from 'pusher';
import { describe, expect, it } from 'vitest';
import {
  connectClient,
  connected,
  credentials,
  nextEvent,
  serverLibrary,
  silence,
  startApp,
} from '../../test/test-realtime.ts';

// The HTTP events API as the official `pusher` library calls it, and what it refuses.

const { app, port } = await startApp();
const library = serverLibrary(port);
const unique = (prefix: string) => `${prefix}-${randomUUID()}`;
const EVENTS_PATH = `/apps/${credentials.appId}/events`;

async function subscribed(channelName: string) {
  const client = connectClient(port);
  const channel = client.subscribe(channelName);
  await nextEvent(channel, 'pusher:subscription_succeeded');
  return { client, channel };
}

/** A request signed by the library, sent by hand so that one part of it can be wrong. */
async function signedPost(
  body: string,
  { path = EVENTS_PATH, signedBody = body, params = {} as Record<string, string> } = {},
) {
  const query = library.createSignedQueryString({ method: 'POST', path, body: signedBody, params });
  return fetch(`http://127.0.0.1:${port}${path}?${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Pusher.RequestError) {
      return { status: error.status ?? 0, body: JSON.parse(error.body ?? 'null') };
    }
    throw error;
  }
  throw new Error('the request was accepted');
}

describe('POST /apps/{id}/events', () => {
  it('delivers a signed event, answering {} as Pusher does', async () => {
    const channelName = unique('orders');
    const { channel } = await subscribed(channelName);
    const received = nextEvent(channel, 'order-paid');
    const response = await library.trigger(channelName, 'order-paid', { id: 3 });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
    expect(await received).toEqual({ id: 3 });
  });

  it('spares the socket named in socket_id', async () => {
    const channelName = unique('orders');
    const sender = await subscribed(channelName);
    const other = await subscribed(channelName);
    const quiet = silence(sender.channel, 'moved');
    const received = nextEvent(other.channel, 'moved');
    await library.trigger(channelName, 'moved', {}, { socket_id: await connected(sender.client) });
    await received;
    await quiet;
  });

  it('delivers a batch', async () => {
    const [a, b] = [unique('batch-a'), unique('batch-b')];
    const [first, second] = await Promise.all([subscribed(a), subscribed(b)]);
    const received = [nextEvent(first.channel, 'one'), nextEvent(second.channel, 'two')];
    await library.triggerBatch([
      { channel: a, name: 'one', data: { n: 1 } },
      { channel: b, name: 'two', data: { n: 2 } },
    ]);
    expect(await Promise.all(received)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('refuses a request signed with another secret (401, in the error envelope)', async () => {
    const forger = serverLibrary(port, 'not-the-secret');
    expect(await refusal(forger.trigger('orders', 'x', {}))).toEqual({
      status: 401,
      body: { code: 'unauthenticated', errors_info: ['Invalid signature'] },
    });
  });

  it('refuses a body that is not the one signed, an old timestamp and another auth version', async () => {
    const body = JSON.stringify({ name: 'x', data: '{}', channels: ['orders'] });
    const tampered = await signedPost(body.replace('orders', 'others'), { signedBody: body });
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toMatchObject({
      errors_info: ['body_md5 does not match the body'],
    });

    const timestamp = String(Math.floor(Date.now() / 1000) - 601);
    const query = library
      .createSignedQueryString({ method: 'POST', path: EVENTS_PATH, body })
      .replace(/auth_timestamp=\d+/, `auth_timestamp=${timestamp}`);
    const old = await fetch(`http://127.0.0.1:${port}${EVENTS_PATH}?${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(old.status).toBe(401);

    const unsigned = await fetch(`http://127.0.0.1:${port}${EVENTS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(unsigned.status).toBe(401);
  });

  it('answers 404 for another app id', async () => {
    const body = JSON.stringify({ name: 'x', data: '{}', channels: ['orders'] });
    const response = await signedPost(body, { path: '/apps/other/events' });
    expect(response.status).toBe(404);
  });

  it('refuses data over 10 KB (413), too many channels and bad names (400)', async () => {
    expect(
      await refusal(library.trigger('orders', 'big', 'x'.repeat(10 * 1024 + 1))),
    ).toMatchObject({
      status: 413,
      body: { code: 'payload_too_large' },
    });
    const channels = Array.from({ length: 101 }, (_, index) => `c${index}`);
    const many = await signedPost(JSON.stringify({ name: 'x', data: '{}', channels }));
    expect(many.status).toBe(400);
    const badName = await signedPost(JSON.stringify({ name: 'x', data: '{}', channels: ['a b'] }));
    expect(badName.status).toBe(400);
    const notJson = await signedPost('{');
    expect(notJson.status).toBe(400);
  });

  it('is not in the OpenAPI document', async () => {
    const docs = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(Object.keys(docs.json().paths).filter((path) => path.startsWith('/apps'))).toEqual([]);
  });
});

describe('GET /apps/{id}/channels/{name}/users', () => {
  it('lists presence channels only', async () => {
    expect(await refusal(library.get({ path: '/channels/orders/users' }))).toMatchObject({
      status: 400,
    });
    const empty = await library.get({ path: `/channels/${unique('presence-empty')}/users` });
    expect(await empty.json()).toEqual({ users: [] });
  });
});
