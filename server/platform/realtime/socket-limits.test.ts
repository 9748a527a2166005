import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { startTcpProxy } from '../../test/tcp-proxy.ts';
import {
  connectClient,
  connected,
  nextEvent,
  RawClient,
  silence,
  startApp,
  startRealtimeOnly,
  upgradeStatus,
} from '../../test/test-realtime.ts';
import { describeWithRedis } from '../../test/test-services.ts';

// What one client may cost the built-in server, through real sockets: frames per second,
// work waiting on Redis, and sockets per address.

const unique = (prefix: string) => `${prefix}-${randomUUID()}`;
type PusherError = { type: string; data: { code: number } };

describe('frame rate', async () => {
  const strict = await startRealtimeOnly({ limits: { frameBurst: 5, framesPerSecond: 2 } });
  // A token per ~17 minutes: however late the frames arrive, the burst is all there is.
  const noRefill = await startRealtimeOnly({ limits: { frameBurst: 5, framesPerSecond: 0.001 } });

  it('closes a socket that sends faster than its budget with 4301', async () => {
    const raw = await RawClient.open(noRefill.port);
    await raw.socketId();
    for (let i = 0; i < 8; i++) raw.send('pusher:ping', {});
    expect((await raw.closed).code).toBe(4301);
    // The burst was served before the close.
    expect(raw.history.filter((frame) => frame.event === 'pusher:pong')).toHaveLength(5);
  });

  it('refills the budget over time', async () => {
    const raw = await RawClient.open(strict.port);
    await raw.socketId();
    const pings = async (count: number) => {
      for (let i = 0; i < count; i++) raw.send('pusher:ping', {});
      for (let i = 0; i < count; i++) await raw.next('pusher:pong');
    };
    await pings(5);
    // Two a second: three more after 1.6 s.
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    await pings(3);
    expect(raw.ws.readyState).toBe(raw.ws.OPEN);
  });

  it('is a refusal pusher-js reports with the code and does not retry by itself', async () => {
    const client = connectClient(noRefill.port);
    await connected(client);
    const error = nextEvent<PusherError>(client.connection, 'error');
    for (let i = 0; i < 8; i++) client.send_event('pusher:ping', {});
    expect((await error).data.code).toBe(4301);
    await silence(client.connection, 'connected', 1_500);
    expect(client.connection.state).toBe('disconnected');
  });
});

describe('the default budget', async () => {
  const { port } = await startApp();

  it('lets pusher-js resubscribe the most channels a socket may hold, all at once', async () => {
    const client = connectClient(port);
    await connected(client);
    const names = Array.from({ length: 100 }, () => unique('news'));
    const channels = names.map((name) => client.subscribe(name));
    await Promise.all(
      channels.map((channel) => nextEvent(channel, 'pusher:subscription_succeeded')),
    );
    // pusher-js resends every subscription when it reconnects, in one go.
    client.disconnect();
    client.connect();
    const again = channels.map((channel) => nextEvent(channel, 'pusher:subscription_succeeded'));
    await Promise.all(again);
    expect(client.connection.state).toBe('connected');
  });
});

describe('sockets per address', async () => {
  const limited = await startRealtimeOnly({ limits: { connectionsPerAddress: 3 } });
  const proxied = await startRealtimeOnly(
    { limits: { connectionsPerAddress: 2 } },
    { TRUST_PROXY: 'true' },
  );

  it('refuses the upgrade with 503 beyond the cap, and takes one again once a socket closes', async () => {
    const open = await Promise.all([1, 2, 3].map(() => RawClient.open(limited.port)));
    expect(await upgradeStatus(limited.port)).toBe(503);
    open[0]?.ws.close();
    await open[0]?.closed;
    // The server counts the socket off when its TCP connection is gone.
    await expect.poll(() => upgradeStatus(limited.port)).toBeUndefined();
  });

  it('counts the address the trusted proxy names (TRUST_PROXY)', async () => {
    const from = (address: string) => ({ 'x-forwarded-for': `${address}, 10.0.0.1` });
    await RawClient.open(proxied.port, undefined, from('203.0.113.7'));
    await RawClient.open(proxied.port, undefined, from('203.0.113.7'));
    expect(await upgradeStatus(proxied.port, from('203.0.113.7'))).toBe(503);
    expect(await upgradeStatus(proxied.port, from('198.51.100.4'))).toBeUndefined();
  });
});

describeWithRedis('work waiting on a slow Redis', async (url) => {
  const slow = await startTcpProxy(url, { delayMs: 150 });
  afterAll(() => slow.stop());
  const { port } = await startRealtimeOnly(
    { limits: { queuedSteps: 12 } },
    { REDIS_URL: slow.url },
  );

  it('sends a socket that keeps subscribing and unsubscribing away (4100) once its queue is full', async () => {
    const raw = await RawClient.open(port);
    await raw.socketId();
    // Each subscribe to a channel new to the process waits for Redis (and each costs a
    // SUBSCRIBE); the frame budget allows the burst, the queue does not.
    const channel = unique('news');
    for (let i = 0; i < 15; i++) {
      raw.send('pusher:subscribe', { channel });
      raw.send('pusher:unsubscribe', { channel });
    }
    expect(await raw.closed).toEqual({ code: 4100, reason: 'Too many requests waiting' });
  });

  it('serves a socket whose requests fit in the queue, slow as Redis is', async () => {
    const raw = await RawClient.open(port);
    await raw.socketId();
    const names = Array.from({ length: 10 }, () => unique('news'));
    for (const channel of names) raw.send('pusher:subscribe', { channel });
    for (const channel of names) {
      expect((await raw.next('pusher_internal:subscription_succeeded')).channel).toBe(channel);
    }
    expect(raw.ws.readyState).toBe(raw.ws.OPEN);
  });
});
