import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { broadcastingAuthEndpoint, systemEventsChannel } from '#shared/contracts/realtime.ts';
import { errorResponse, type FetchHandler, jsonResponse, stubFetch } from '../test/stub-fetch.ts';
import { connectRealtime, type RealtimeConnection } from './realtime-client.ts';

// The real pusher-js and our glue, with the network stood in for: a scripted WebSocket
// (the server's side of the Pusher protocol) and fetch for broadcasting/auth. Fake timers
// show whose timings apply: pusher-js alone would retry a closed socket after 1 s, a failed
// attempt after 15 s, and never retry a failed authorisation.

const AUTH = broadcastingAuthEndpoint.url;
const USER_ID = 7;
const CHANNEL = systemEventsChannel(USER_ID);

class ScriptedSocket {
  static all: ScriptedSocket[] = [];
  readonly url: string;
  readyState = 0;
  sent: { event: string; data: unknown; channel?: string }[] = [];
  onopen?: (event: unknown) => void;
  onmessage?: (event: { data: string }) => void;
  onerror?: (event: unknown) => void;
  onclose?: (event: { code: number; reason: string; wasClean: boolean }) => void;

  constructor(url: string) {
    this.url = url;
    ScriptedSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    if (this.readyState === 3) return;
    this.readyState = 3;
    queueMicrotask(() => this.onclose?.({ code: 1000, reason: '', wasClean: true }));
  }
  // The server's side.
  accept() {
    this.readyState = 1;
    this.onopen?.({});
    this.push('pusher:connection_established', { socket_id: '1.2', activity_timeout: 120 });
  }
  push(event: string, data: unknown, channel?: string) {
    this.onmessage?.({ data: JSON.stringify({ event, data: JSON.stringify(data), channel }) });
  }
  /** The network fails: an error, then an abnormal close. */
  drop() {
    this.readyState = 3;
    this.onerror?.(new Event('error'));
    this.onclose?.({ code: 1006, reason: '', wasClean: false });
  }
  /** The server closes a healthy connection (a restart). */
  hangUp() {
    this.readyState = 3;
    this.onclose?.({ code: 1001, reason: 'going away', wasClean: true });
  }
}

const sockets = () => ScriptedSocket.all;
const latest = () => {
  const socket = ScriptedSocket.all.at(-1);
  if (!socket) throw new Error('no socket was opened');
  return socket;
};
const wait = (ms: number) => vi.advanceTimersByTimeAsync(ms);
// Reading a fetch answer takes real turns of the event loop; fake time does not move here.
const realSetTimeout = globalThis.setTimeout;
async function settle() {
  for (let turn = 0; turn < 3; turn++) {
    await new Promise((resolve) => realSetTimeout(resolve, 0));
    await vi.advanceTimersByTimeAsync(0);
  }
}
/** Lets frames out: pusher-js defers each send by a 0 ms timer, due 1 ms on under fake time. */
async function flushSends() {
  await settle();
  await wait(1);
}
const subscribes = (socket: ScriptedSocket) =>
  socket.sent.filter((frame) => frame.event === 'pusher:subscribe');

const granted: FetchHandler = () =>
  jsonResponse(200, { auth: 'key:signature', channel_data: JSON.stringify({ user_id: '7' }) });

let connection: RealtimeConnection | undefined;
let events: [string, unknown][];

function connect(extraChannels?: Parameters<typeof connectRealtime>[0]['extraChannels']) {
  events = [];
  connection = connectRealtime({
    settings: { key: 'app-key', host: null, port: null, tls: false, cluster: 'mt1' },
    userId: USER_ID,
    onEvent: (name, data) => events.push([name, data]),
    ...(extraChannels ? { extraChannels } : {}),
  });
  return connection;
}

/** Opens the first socket, joins the channel and confirms it, as the server would. */
async function connectAndJoin(extraChannels?: Parameters<typeof connect>[0]) {
  connect(extraChannels);
  latest().accept();
  await wait(500);
  await flushSends();
  latest().push(
    'pusher_internal:subscription_succeeded',
    {
      presence: { ids: ['7'], hash: { 7: {} }, count: 1 },
    },
    CHANNEL,
  );
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  vi.stubGlobal('WebSocket', ScriptedSocket);
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  ScriptedSocket.all = [];
});

afterEach(() => {
  connection?.stop();
  connection = undefined;
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the live connection follows our policy, not pusher-js (§8, §9)', () => {
  it('joins the user channel 500 ms after connecting and passes its events on', async () => {
    const seen = stubFetch({ [AUTH]: granted });
    connect();
    expect(sockets()).toHaveLength(1);
    expect(latest().url).toContain('/app/app-key');
    latest().accept();
    expect(connection?.state).toBe('connected');
    await wait(499);
    expect(seen).toHaveLength(0);
    await wait(1);
    await flushSends();
    expect(seen).toHaveLength(1);
    expect(await seen[0]?.json()).toEqual({ socket_id: '1.2', channel_name: CHANNEL });
    expect(subscribes(latest())).toMatchObject([
      { data: { channel: CHANNEL, auth: 'key:signature' } },
    ]);
    latest().push(
      'pusher_internal:subscription_succeeded',
      {
        presence: { ids: ['7'], hash: { 7: {} }, count: 1 },
      },
      CHANNEL,
    );
    latest().push('Users\\UserUpdated', { user: { id: 7 } }, CHANNEL);
    expect(events).toEqual([['Users\\UserUpdated', { user: { id: 7 } }]]);
  });

  it('reconnects a closed connection after 5 s, not after pusher-js’s 1 s', async () => {
    stubFetch({ [AUTH]: granted });
    await connectAndJoin();
    latest().hangUp();
    await wait(4_999);
    expect(sockets()).toHaveLength(1);
    expect(connection?.phase).toBe('waiting');
    await wait(1);
    expect(sockets()).toHaveLength(2);
    // The new socket joins anew, 500 ms after it connects.
    latest().accept();
    await wait(500);
    await flushSends();
    expect(subscribes(latest())).toHaveLength(1);
  });

  it('retries after 1 s on a network error, then every 5 s while the network stays down', async () => {
    stubFetch({ [AUTH]: granted });
    await connectAndJoin();
    latest().drop();
    await wait(999);
    expect(sockets()).toHaveLength(1);
    await wait(1);
    expect(sockets()).toHaveLength(2);
    // The attempt fails at once; pusher-js would sit on it for 15 s, then try again.
    latest().drop();
    await wait(4_999);
    expect(sockets()).toHaveLength(2);
    await wait(1);
    expect(sockets()).toHaveLength(3);
    latest().drop();
    await wait(5_000);
    expect(sockets()).toHaveLength(4);
    latest().accept();
    expect(connection?.state).toBe('connected');
  });

  it('gives up an attempt that hangs after 10 s and tries again 5 s later', async () => {
    stubFetch({ [AUTH]: granted });
    connect();
    await wait(10_000);
    expect(connection?.phase).toBe('waiting');
    expect(latest().readyState).toBe(3);
    await wait(5_000);
    expect(sockets()).toHaveLength(2);
  });

  it.each([
    ['a network failure', () => Promise.reject(new TypeError('Failed to fetch')), 1_000],
    ['429', () => errorResponse(429, 'too_many_requests'), 5_000],
    ['503', () => errorResponse(503, 'unavailable'), 5_000],
  ])(
    'retries the channel after %s of broadcasting/auth, on the same socket',
    async (_name, failure, delay) => {
      let calls = 0;
      stubFetch({ [AUTH]: (request) => (++calls === 1 ? failure() : granted(request)) });
      connect();
      latest().accept();
      await wait(500);
      await settle();
      expect(calls).toBe(1);
      expect(subscribes(latest())).toHaveLength(0);
      await wait(delay - 1);
      expect(calls).toBe(1);
      await wait(1);
      expect(calls).toBe(2);
      await flushSends();
      expect(subscribes(latest())).toHaveLength(1);
      expect(sockets()).toHaveLength(1);
      expect(connection?.state).toBe('connected');
    },
  );

  it.each([401, 403])(
    'closes the socket for good when broadcasting/auth answers %i',
    async (status) => {
      stubFetch({
        [AUTH]: () => errorResponse(status, status === 401 ? 'unauthenticated' : 'forbidden'),
      });
      connect();
      latest().accept();
      await wait(500);
      await settle();
      expect(connection?.phase).toBe('stopped');
      expect(latest().readyState).toBe(3);
      await wait(60_000);
      expect(sockets()).toHaveLength(1);
    },
  );

  it('closes for good when the server refuses the channel with 401', async () => {
    stubFetch({ [AUTH]: granted });
    connect();
    latest().accept();
    await wait(500);
    await settle();
    latest().push(
      'pusher:subscription_error',
      { type: 'AuthError', error: 'bad signature', status: 401 },
      CHANNEL,
    );
    expect(connection?.phase).toBe('stopped');
    await wait(60_000);
    expect(sockets()).toHaveLength(1);
  });

  it('stops reconnecting at logout', async () => {
    stubFetch({ [AUTH]: granted });
    await connectAndJoin();
    latest().drop();
    connection?.stop();
    await wait(60_000);
    expect(sockets()).toHaveLength(1);
    expect(connection?.state).toBe('disconnected');
  });
});

describe('channels a screen asks for', () => {
  const FLEET = 'private-fleet-locations';

  function wanting() {
    let wanted: string[] = [];
    let watch = () => {};
    const channelEvents: [string, string, unknown][] = [];
    return {
      channelEvents,
      set(next: string[]) {
        wanted = next;
        watch();
      },
      options: {
        wanted: () => wanted,
        onWantedChange: (next: () => void) => {
          watch = next;
          return () => {
            watch = () => {};
          };
        },
        onChannelEvent: (channel: string, name: string, data: unknown) =>
          channelEvents.push([channel, name, data]),
      },
    };
  }

  it('joins them once the user’s channel is joined, passes their events on, and leaves them', async () => {
    const seen = stubFetch({ [AUTH]: granted });
    const screen = wanting();
    screen.set([FLEET]);
    await connectAndJoin(screen.options);
    await flushSends();
    expect(
      subscribes(latest()).map((frame) => (frame.data as { channel: string }).channel),
    ).toEqual([CHANNEL, FLEET]);
    expect(seen).toHaveLength(2);
    latest().push('pusher_internal:subscription_succeeded', {}, FLEET);
    latest().push('Fleet\\LocationsUpdated', {}, FLEET);
    expect(screen.channelEvents).toEqual([[FLEET, 'Fleet\\LocationsUpdated', {}]]);
    expect(events).toEqual([]);

    screen.set([]);
    await flushSends();
    expect(latest().sent.filter((frame) => frame.event === 'pusher:unsubscribe')).toMatchObject([
      { data: { channel: FLEET } },
    ]);
  });

  it('keeps the connection when one of them is refused', async () => {
    stubFetch({
      [AUTH]: async (request) => {
        const body = (await request.json()) as { channel_name: string };
        return body.channel_name === FLEET ? errorResponse(403, 'forbidden') : granted(request);
      },
    });
    const screen = wanting();
    await connectAndJoin(screen.options);
    screen.set([FLEET]);
    await flushSends();
    await settle();
    expect(connection?.phase).toBe('connected');
    expect(sockets()).toHaveLength(1);
  });
});
