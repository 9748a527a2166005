import { randomUUID } from 'node:crypto';
import type { PresenceChannel } from 'pusher-js';
import { describe, expect, it } from 'vitest';
import { startTcpProxy } from '../../test/tcp-proxy.ts';
import { createTestApp } from '../../test/test-app.ts';
import {
  connectClient,
  connected,
  holdShutdown,
  nextEvent,
  RawClient,
  serverLibrary,
  silence,
  startApp,
} from '../../test/test-realtime.ts';
import { describeWithRedis } from '../../test/test-services.ts';

// Two API processes behind a load balancer, as far as realtime can tell: two apps on one
// Redis, each with its own port, its own sockets and its own in-process state.

const unique = (prefix: string) => `${prefix}-${randomUUID()}`;
type Member = { id: string; info: unknown };

async function subscribedOn(port: number, channelName: string, userId?: string) {
  const client = connectClient(port, userId === undefined ? {} : { presence: { user_id: userId } });
  const channel = client.subscribe(channelName);
  await nextEvent(channel, 'pusher:subscription_succeeded');
  return { client, channel };
}

describe('without REDIS_URL', async () => {
  const a = await startApp();
  const b = await startApp();

  it('keeps each process to itself', async () => {
    const channelName = unique('news');
    const { channel } = await subscribedOn(a.port, channelName);
    const quiet = silence(channel, 'hello');
    await b.app.realtime.publish(channelName, 'hello', {});
    await quiet;
  });
});

describeWithRedis('with REDIS_URL', async (url) => {
  const a = await startApp({ REDIS_URL: url });
  const b = await startApp({ REDIS_URL: url });
  // A process that only runs jobs (or answers app.inject): it never listens.
  const { app: worker } = await createTestApp({ REDIS_URL: url });
  const leaving = await startApp({ REDIS_URL: url });
  // Its shutdown waits for an unresponsive client as long as the test needs (see below).
  const draining = await startApp({ REDIS_URL: url }, { realtime: { closeGraceMs: 60_000 } });

  it('delivers an event published on B to a client on A', async () => {
    const channelName = unique('news');
    const onA = await subscribedOn(a.port, channelName);
    const onB = await subscribedOn(b.port, channelName);
    const received = [nextEvent(onA.channel, 'hello'), nextEvent(onB.channel, 'hello')];
    await b.app.realtime.publish(channelName, 'hello', { from: 'B' });
    expect(await Promise.all(received)).toEqual([{ from: 'B' }, { from: 'B' }]);
  });

  it('spares the named socket on another process too', async () => {
    const channelName = unique('news');
    const onA = await subscribedOn(a.port, channelName);
    const onB = await subscribedOn(b.port, channelName);
    const quiet = silence(onA.channel, 'moved');
    const received = nextEvent(onB.channel, 'moved');
    await serverLibrary(b.port).trigger(
      channelName,
      'moved',
      {},
      {
        socket_id: await connected(onA.client),
      },
    );
    await received;
    await quiet;
  });

  it('reaches other processes from one that does not listen (app.inject only)', async () => {
    const channelName = unique('news');
    const { channel } = await subscribedOn(a.port, channelName);
    const received = nextEvent(channel, 'from-worker');
    await worker.realtime.publish(channelName, 'from-worker', { ok: 1 });
    expect(await received).toEqual({ ok: 1 });
  });

  it('shares presence: members, arrivals and departures span both processes', async () => {
    const channelName = unique('presence-room');
    const ann = await subscribedOn(a.port, channelName, 'ann');
    const annChannel = ann.channel as PresenceChannel;

    const bobArrives = nextEvent<Member>(annChannel, 'pusher:member_added');
    const bob = await subscribedOn(b.port, channelName, 'bob');
    expect((await bobArrives).id).toBe('bob');
    expect((bob.channel as PresenceChannel).members.count).toBe(2);

    // Bob opens a second tab on the other process: still one Bob.
    const quiet = silence(annChannel, 'pusher:member_added');
    const bobAgain = await subscribedOn(a.port, channelName, 'bob');
    expect((bobAgain.channel as PresenceChannel).members.count).toBe(2);
    await quiet;
    const users = await serverLibrary(a.port).get({ path: `/channels/${channelName}/users` });
    expect(
      ((await users.json()) as { users: { id: string }[] }).users.map((u) => u.id).sort(),
    ).toEqual(['ann', 'bob']);

    const stillThere = silence(annChannel, 'pusher:member_removed');
    bob.client.disconnect();
    await stillThere;
    const bobLeaves = nextEvent<Member>(annChannel, 'pusher:member_removed');
    bobAgain.client.disconnect();
    expect((await bobLeaves).id).toBe('bob');
    expect(annChannel.members.count).toBe(1);
  });

  it('announces the departures of a process that shuts down, whose clients reconnect', async () => {
    const channelName = unique('presence-room');
    const ann = await subscribedOn(a.port, channelName, 'ann');
    const raw = await RawClient.open(leaving.port);
    await raw.socketId();
    const carl = await subscribedOn(leaving.port, channelName, 'carl');
    const carlLeaves = nextEvent<Member>(ann.channel, 'pusher:member_removed');
    await leaving.app.close();
    expect((await carlLeaves).id).toBe('carl');
    expect((await raw.closed).code).toBe(4200);
    expect(carl.client.connection.state).not.toBe('connected');
  });

  it('passes on the events of requests that finish while the process shuts down', async () => {
    const channelName = unique('news');
    const { channel } = await subscribedOn(a.port, channelName);
    // A client that ignores the close frame holds the shutdown in its grace period, while
    // new requests get 503; the grace is long here, and ends when the test lets that client go.
    const shutdown = await holdShutdown(draining);

    const received = [nextEvent(channel, 'published'), nextEvent(channel, 'over-http')];
    // What a finishing request publishes, and a publish that was already on its way.
    await draining.app.realtime.publish(channelName, 'published', { n: 1 });
    await serverLibrary(draining.port).trigger(channelName, 'over-http', { n: 2 });
    expect(await Promise.all(received)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(shutdown.finished()).toBe(false);
    await shutdown.release();
  });

  describe('when Redis goes away', async () => {
    const proxy = await startTcpProxy(url);
    const cut = await startApp({ REDIS_URL: proxy.url });

    it('still serves its own clients, asks new subscribers to come back later, and closes', async () => {
      const channelName = unique('news');
      const { channel } = await subscribedOn(cut.port, channelName);
      await proxy.stop();
      const received = nextEvent(channel, 'still-here');
      await cut.app.realtime.publish(channelName, 'still-here', {});
      await received;

      const raw = await RawClient.open(cut.port);
      await raw.socketId();
      raw.send('pusher:subscribe', { channel: unique('news') });
      expect((await raw.closed).code).toBe(4100);
      await cut.app.close();
    });
  });
});
