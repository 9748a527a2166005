import { randomBytes } from 'node:crypto';
import { type AddressInfo, connect, type Socket } from 'node:net';
import Fastify from 'fastify';
import Pusher from 'pusher';
import PusherClient, { type Options } from 'pusher-js';
import { afterAll, afterEach, onTestFinished } from 'vitest';
import { WebSocket } from 'ws';
import { buildApp } from '../app.ts';
import { TEST_APP_SECRET, testConfig } from '../config.ts';
import { errorHandler } from '../http/error-handler.ts';
import type { App } from '../http/types.ts';
import { builtInApp } from '../platform/realtime/pusher-app.ts';
import type { PresenceMember } from '../platform/realtime/realtime.ts';
import {
  type RealtimePluginOptions,
  realtimePlugin,
} from '../platform/realtime/realtime-plugin.ts';
import type { TestAppDependencies } from './test-app.ts';
import { createTestDatabase } from './test-database.ts';
import { until } from './wait-until.ts';

// Helpers for the realtime tests: listening apps, the official clients pointed at them, and a
// raw websocket for what pusher-js would never send.

/** The built-in app of every test app: testConfig gives them all the same APP_SECRET. */
export const credentials = builtInApp(TEST_APP_SECRET);

const WAIT_MS = 5_000;

export interface ListeningApp {
  app: App;
  port: number;
}

async function listen(app: App): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as AddressInfo).port;
}

/**
 * The real app on a fresh test database, listening on a free port until the file ends; no
 * scheduled jobs, as with createTestApp.
 */
export async function startApp(
  env: Record<string, string> = {},
  deps: TestAppDependencies = {},
): Promise<ListeningApp> {
  const database = await createTestDatabase();
  const app = await buildApp(testConfig(env), { jobs: [], ...deps, database });
  const port = await listen(app);
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  return { app, port };
}

/** Only the realtime plugin, for timings and limits shortened below the protocol's. */
export async function startRealtimeOnly(
  options: RealtimePluginOptions,
  env: Record<string, string> = {},
): Promise<ListeningApp> {
  const app = Fastify() as unknown as App;
  app.decorate('config', testConfig(env));
  await app.register(errorHandler);
  await app.register(realtimePlugin, options);
  const port = await listen(app);
  afterAll(() => app.close());
  return { app, port };
}

/** The server library with the built-in credentials, as the product's own code uses it. */
export function serverLibrary(port?: number, secret = credentials.secret): Pusher {
  return new Pusher({ ...credentials, secret, host: '127.0.0.1', port: port?.toString() });
}

const openClients = new Set<PusherClient>();
afterEach(() => {
  for (const client of openClients) client.disconnect();
  openClients.clear();
});

export interface ClientOptions {
  /** The member it joins presence channels as. */
  presence?: PresenceMember;
  /** Signs its channel authorisations; the right secret by default. */
  signer?: Pusher;
  options?: Partial<Options>;
}

/**
 * pusher-js as a browser would use it, authorising channels with the server library (what
 * the broadcasting/auth route answers).
 */
export function connectClient(
  port: number,
  { presence, signer = serverLibrary(), options }: ClientOptions = {},
): PusherClient {
  const client = new PusherClient(credentials.key, {
    cluster: 'mt1',
    wsHost: '127.0.0.1',
    wsPort: port,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: {
      customHandler: ({ socketId, channelName }, callback) =>
        callback(null, signer.authorizeChannel(socketId, channelName, presence)),
    },
    ...options,
  });
  openClients.add(client);
  return client;
}

interface Bindable {
  bind(event: string, callback: (data: never) => void): unknown;
  unbind(event: string, callback: (data: never) => void): unknown;
}

/** The next `event` on a pusher-js client, channel or connection. */
export function nextEvent<T = unknown>(target: Bindable, event: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      target.unbind(event, handler);
      reject(new Error(`no ${event} within ${WAIT_MS} ms`));
    }, WAIT_MS);
    const handler = (data: never) => {
      clearTimeout(timer);
      target.unbind(event, handler);
      resolve(data as T);
    };
    target.bind(event, handler);
  });
}

export async function connected(client: PusherClient): Promise<string> {
  if (client.connection.state !== 'connected') await nextEvent(client.connection, 'connected');
  return client.connection.socket_id;
}

/** Resolves once nothing named `event` arrived for `ms`; rejects if one did. */
export function silence(target: Bindable, event: string, ms = 300): Promise<void> {
  return new Promise((resolve, reject) => {
    const handler = (data: never) => {
      clearTimeout(timer);
      target.unbind(event, handler);
      reject(new Error(`unexpected ${event}: ${JSON.stringify(data)}`));
    };
    const timer = setTimeout(() => {
      target.unbind(event, handler);
      resolve();
    }, ms);
    target.bind(event, handler);
  });
}

export interface Frame {
  event: string;
  channel?: string;
  data: unknown;
}

/** A bare websocket speaking the protocol by hand, frames decoded as pusher-js would. */
export class RawClient {
  readonly frames: Frame[] = [];
  /** Every frame received, including those `next` has taken. */
  readonly history: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiting: (() => void) | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      const parsed = JSON.parse(raw.toString()) as Frame;
      if (typeof parsed.data === 'string') {
        try {
          parsed.data = JSON.parse(parsed.data);
        } catch {
          // Plain text data stays text.
        }
      }
      this.frames.push(parsed);
      this.history.push(parsed);
      this.waiting?.();
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  static async open(
    port: number,
    path = `/app/${credentials.key}?protocol=7`,
    headers: Record<string, string> = {},
  ): Promise<RawClient> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers });
    const client = new RawClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    onTestFinished(() => ws.terminate());
    return client;
  }

  send(event: string, data: unknown, channel?: string): void {
    this.ws.send(
      JSON.stringify(channel === undefined ? { event, data } : { event, data, channel }),
    );
  }

  /** The first frame named `event` not yet taken (frames before it are dropped). */
  async next(event: string): Promise<Frame> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const index = this.frames.findIndex((frame) => frame.event === event);
      if (index >= 0) return this.frames.splice(0, index + 1)[index] as Frame;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${event} within ${WAIT_MS} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  async socketId(): Promise<string> {
    const { data } = await this.next('pusher:connection_established');
    return (data as { socket_id: string }).socket_id;
  }
}

/** The HTTP status of a refused websocket upgrade (undefined when it was accepted). */
export function upgradeStatus(
  port: number,
  headers: Record<string, string> = {},
): Promise<number | undefined> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/app/${credentials.key}?protocol=7`, {
    headers,
  });
  onTestFinished(() => ws.terminate());
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_request, response) => resolve(response.statusCode));
    ws.on('open', () => resolve(undefined));
    ws.on('error', reject);
  });
}

/**
 * A client that completes the handshake and then never answers anything, the close frame
 * included: the server has to wait out its grace period for it, as for a client whose
 * network went quiet.
 */
export async function unresponsiveSocket(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  onTestFinished(() => {
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(
    [
      `GET /app/${credentials.key}?protocol=7 HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      '',
      '',
    ].join('\r\n'),
  );
  await new Promise<void>((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (!text.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (text.startsWith('HTTP/1.1 101')) resolve();
      else reject(new Error(`upgrade refused: ${text.split('\r\n')[0]}`));
    };
    socket.on('data', onData);
  });
  // Reads on (so the server's writes never block) and says nothing.
  socket.resume();
  return socket;
}

export interface HeldShutdown {
  /** Whether the app has finished closing. */
  finished(): boolean;
  /** Lets the held client go and waits for the close to end. */
  release(): Promise<void>;
}

/**
 * Starts closing `draining` while an unresponsive client holds it in its grace period (set
 * long by the caller), and resolves once new requests are answered 503: the window in which
 * requests still finishing may publish.
 */
export async function holdShutdown(draining: ListeningApp): Promise<HeldShutdown> {
  const holder = await unresponsiveSocket(draining.port);
  let finished = false;
  const closed = draining.app.close().then(() => {
    finished = true;
  });
  await until(
    async () => (await fetch(`http://127.0.0.1:${draining.port}/api/anything`)).status === 503,
    'new requests to get 503',
  );
  return {
    finished: () => finished,
    release: async () => {
      holder.destroy();
      await closed;
    },
  };
}
