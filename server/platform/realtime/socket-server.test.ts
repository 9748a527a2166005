import { randomUUID } from 'node:crypto';
import PusherClient, { type PresenceChannel } from 'pusher-js';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  connectClient,
  connected,
  credentials,
  holdShutdown,
  nextEvent,
  RawClient,
  serverLibrary,
  silence,
  startApp,
  startRealtimeOnly,
} from '../../test/test-realtime.ts';
import { channelAuth } from './signatures.ts';

// The built-in server as the official pusher-js client sees it (protocol 7), with a raw
// websocket for what pusher-js would never send.

const { app, port } = await startApp();
const unique = (prefix: string) => `${prefix}-${randomUUID()}`;

type PusherError = { type: string; data: { code: number | null; message: string } };
type Member = { id: string; info: unknown };

describe('connection', () => {
  it('greets with a socket id and the activity timeout', async () => {
    const raw = await RawClient.open(port);
    const { data } = await raw.next('pusher:connection_established');
    expect(data).toEqual({ socket_id: expect.stringMatching(/^\d+\.\d+$/), activity_timeout: 120 });

    const client = connectClient(port);
    expect(await connected(client)).toMatch(/^\d+\.\d+$/);
  });

  it('answers pusher:ping with pusher:pong', async () => {
    const raw = await RawClient.open(port);
    await raw.socketId();
    raw.send('pusher:ping', {});
    expect((await raw.next('pusher:pong')).data).toEqual({});
  });

  it('refuses an unknown app key with 4001, and says so to pusher-js', async () => {
    const raw = await RawClient.open(port, '/app/not-our-key?protocol=7');
    const error = await raw.next('pusher:error');
    expect(error.data).toMatchObject({ code: 4001 });
    expect((await raw.closed).code).toBe(4001);

    const wrongKey = new PusherClient('nope', {
      cluster: 'mt1',
      wsHost: '127.0.0.1',
      wsPort: port,
      forceTLS: false,
      enabledTransports: ['ws'],
    });
    try {
      // Refused in the handshake: pusher-js wraps the protocol error and does not retry.
      const refused = await nextEvent<{ error: PusherError }>(wrongKey.connection, 'error');
      expect(refused.error.data.code).toBe(4001);
      await silence(wrongKey.connection, 'connected', 500);
      expect(wrongKey.connection.state).toBe('disconnected');
    } finally {
      wrongKey.disconnect();
    }
  });

  it.each([
    ['no protocol version', '', 4008],
    ['an empty protocol version', '?protocol=', 4008],
    ['a version that is not a number', '?protocol=seven', 4006],
    ['another protocol version', '?protocol=5', 4007],
  ])('refuses %s (%s) with %i, as error frame and close code', async (_what, query, code) => {
    const raw = await RawClient.open(port, `/app/${credentials.key}${query}`);
    expect((await raw.next('pusher:error')).data).toMatchObject({ code });
    expect((await raw.closed).code).toBe(code);
  });

  it('answers 404 to an upgrade elsewhere', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/elsewhere`);
    const status = await new Promise<number | undefined>((resolve) => {
      ws.on('unexpected-response', (_request, response) => resolve(response.statusCode));
      ws.on('error', () => resolve(undefined));
    });
    expect(status).toBe(404);
  });

  it('closes on a message over 10 KB (1009), and pusher-js comes back', async () => {
    const raw = await RawClient.open(port);
    await raw.socketId();
    raw.send('pusher:subscribe', { channel: 'x'.repeat(11 * 1024) });
    expect((await raw.closed).code).toBe(1009);

    const client = connectClient(port);
    const first = await connected(client);
    const error = nextEvent<PusherError>(client.connection, 'error');
    client.send_event('pusher:subscribe', { channel: 'y'.repeat(11 * 1024) });
    expect((await error).data.code).toBe(1009);
    await nextEvent(client.connection, 'connected');
    expect(client.connection.socket_id).not.toBe(first);
  });

  it('refuses client events: the product never sends them', async () => {
    const raw = await RawClient.open(port);
    await raw.socketId();
    raw.send('client-typing', { hi: 1 }, 'private-room');
    expect((await raw.next('pusher:error')).data).toMatchObject({
      code: null,
      message: expect.stringMatching(/client events/i),
    });
    raw.send('pusher:ping', {});
    await raw.next('pusher:pong');
  });
});

describe('public and private channels', () => {
  it('delivers what app.realtime.publish sends to the subscribers, through the pusher library', async () => {
    const channelName = unique('news');
    const first = connectClient(port);
    const second = connectClient(port);
    const channels = [first.subscribe(channelName), second.subscribe(channelName)];
    await Promise.all(
      channels.map((channel) => nextEvent(channel, 'pusher:subscription_succeeded')),
    );

    const received = channels.map((channel) => nextEvent(channel, 'Users\\UserUpdated'));
    await app.realtime.publish(channelName, 'Users\\UserUpdated', {
      user: { id: 7, name: 'Nina' },
    });
    expect(await Promise.all(received)).toEqual([
      { user: { id: 7, name: 'Nina' } },
      { user: { id: 7, name: 'Nina' } },
    ]);
  });

  it('stops delivering after unsubscribe', async () => {
    const channelName = unique('news');
    const client = connectClient(port);
    const channel = client.subscribe(channelName);
    await nextEvent(channel, 'pusher:subscription_succeeded');
    client.unsubscribe(channelName);
    const quiet = silence(channel, 'ping-event');
    await app.realtime.publish(channelName, 'ping-event', {});
    await quiet;
  });

  it('subscribes to a private channel with a valid signature', async () => {
    const channelName = unique('private-user');
    const client = connectClient(port);
    const channel = client.subscribe(channelName);
    await nextEvent(channel, 'pusher:subscription_succeeded');
    const received = nextEvent(channel, 'secret');
    await app.realtime.publish([channelName], 'secret', { ok: true });
    expect(await received).toEqual({ ok: true });
  });

  it('refuses a private channel signed with another secret on that channel only', async () => {
    const client = connectClient(port, { signer: serverLibrary(undefined, 'not-the-secret') });
    const socketId = await connected(client);
    // A refused channel is not a refused connection: no error on it, and no reconnect.
    const quiet = silence(client.connection, 'error', 500);
    const channel = client.subscribe(unique('private-user'));
    const refused = await nextEvent<{ type: string; status: number }>(
      channel,
      'pusher:subscription_error',
    );
    expect(refused).toMatchObject({ type: 'AuthError', status: 401 });
    await quiet;
    expect(client.connection.state).toBe('connected');
    expect(client.connection.socket_id).toBe(socketId);
  });

  it('refuses a signature made for another socket, and one without a signature', async () => {
    const raw = await RawClient.open(port);
    await raw.socketId();
    const channel = unique('private-user');
    raw.send('pusher:subscribe', { channel, auth: channelAuth(credentials, '1.2', channel) });
    const refused = await raw.next('pusher:subscription_error');
    expect(refused.channel).toBe(channel);
    expect(refused.data).toMatchObject({ type: 'AuthError', status: 401 });
    raw.send('pusher:subscribe', { channel });
    expect((await raw.next('pusher:subscription_error')).channel).toBe(channel);
    raw.send('pusher:ping', {});
    await raw.next('pusher:pong');
    expect(raw.history.filter((frame) => frame.event === 'pusher:error')).toEqual([]);
    expect(raw.ws.readyState).toBe(WebSocket.OPEN);
  });
});

describe('presence channels', () => {
  it('lists members, announces arrivals and departures, and counts a user once', async () => {
    const channelName = unique('presence-room');
    const ann = connectClient(port, { presence: { user_id: '1', user_info: { name: 'Ann' } } });
    const annChannel = ann.subscribe(channelName) as PresenceChannel;
    await nextEvent(annChannel, 'pusher:subscription_succeeded');
    expect(annChannel.members.count).toBe(1);
    expect(annChannel.members.me).toEqual({ id: '1', info: { name: 'Ann' } });

    const bobAdded = nextEvent<Member>(annChannel, 'pusher:member_added');
    const bob = connectClient(port, { presence: { user_id: '2', user_info: { name: 'Bob' } } });
    const bobChannel = bob.subscribe(channelName) as PresenceChannel;
    await nextEvent(bobChannel, 'pusher:subscription_succeeded');
    expect(await bobAdded).toEqual({ id: '2', info: { name: 'Bob' } });
    const seen: string[] = [];
    bobChannel.members.each((member: Member) => seen.push(member.id));
    expect(seen.sort()).toEqual(['1', '2']);

    // Bob's second tab: no second arrival, and no departure until both tabs are gone.
    const quietArrival = silence(annChannel, 'pusher:member_added');
    const bobAgain = connectClient(port, {
      presence: { user_id: '2', user_info: { name: 'Bob' } },
    });
    const bobAgainChannel = bobAgain.subscribe(channelName) as PresenceChannel;
    await nextEvent(bobAgainChannel, 'pusher:subscription_succeeded');
    expect(bobAgainChannel.members.count).toBe(2);
    await quietArrival;

    const quietDeparture = silence(annChannel, 'pusher:member_removed');
    bob.disconnect();
    await quietDeparture;
    expect(annChannel.members.count).toBe(2);

    const bobRemoved = nextEvent<Member>(annChannel, 'pusher:member_removed');
    bobAgain.unsubscribe(channelName);
    expect((await bobRemoved).id).toBe('2');
    expect(annChannel.members.count).toBe(1);
  });

  it('shows members to the HTTP API, and refuses a presence subscription without channel_data', async () => {
    const channelName = unique('presence-room');
    const client = connectClient(port, { presence: { user_id: '42' } });
    await nextEvent(client.subscribe(channelName), 'pusher:subscription_succeeded');
    const answer = await serverLibrary(port).get({ path: `/channels/${channelName}/users` });
    expect(await answer.json()).toEqual({ users: [{ id: '42' }] });

    const raw = await RawClient.open(port);
    const socketId = await raw.socketId();
    raw.send('pusher:subscribe', {
      channel: channelName,
      auth: channelAuth(credentials, socketId, channelName),
    });
    expect((await raw.next('pusher:subscription_error')).data).toMatchObject({ type: 'AuthError' });
  });
});

describe('publishing', () => {
  it('does not throw when the event cannot be delivered, and works while not listening', async () => {
    await expect(app.realtime.publish('bad channel name', 'x', {})).resolves.toBeUndefined();
    await expect(app.realtime.publish([], 'x', {})).resolves.toBeUndefined();
  });

  it('authorises as the pusher library does', () => {
    const answer = app.realtime.authorize('1.2', 'presence-x', { user_id: '5' });
    expect(answer).toEqual(serverLibrary().authorizeChannel('1.2', 'presence-x', { user_id: '5' }));
  });
});

describe('activity (shortened timings)', async () => {
  const quick = await startRealtimeOnly({ activityTimeoutS: 1, pongTimeoutMs: 400 });

  it('pings a silent client, keeps it when it answers, and closes it with 4201 when not', async () => {
    const answering = await RawClient.open(quick.port);
    const silent = await RawClient.open(quick.port);
    await Promise.all([answering.socketId(), silent.socketId()]);
    await answering.next('pusher:ping');
    answering.send('pusher:pong', {});
    await silent.next('pusher:ping');
    expect((await silent.closed).code).toBe(4201);
    await answering.next('pusher:ping');
    expect(answering.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('keeps pusher-js connected across pings both ways', async () => {
    const client = connectClient(quick.port);
    const socketId = await connected(client);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(client.connection.state).toBe('connected');
    expect(client.connection.socket_id).toBe(socketId);
  });

  it('asks clients to reconnect (4200) when the app closes', async () => {
    const closing = await startRealtimeOnly({});
    const raw = await RawClient.open(closing.port);
    await raw.socketId();
    await closing.app.close();
    expect((await raw.closed).code).toBe(4200);
  });
});

describe('shutdown', async () => {
  // The grace period outlasts the test, which ends it by letting the client go.
  const draining = await startApp({}, { realtime: { closeGraceMs: 60_000 } });

  it('keeps taking events over the HTTP API while other requests get 503', async () => {
    // A client that ignores the close frame holds the shutdown in its grace period.
    const shutdown = await holdShutdown(draining);
    const answer = await serverLibrary(draining.port).trigger(unique('news'), 'late', {});
    expect(answer.status).toBe(200);
    // Still waiting for that client, and done as soon as it has gone.
    expect(shutdown.finished()).toBe(false);
    await shutdown.release();
  });
});
