import { randomUUID } from 'node:crypto';
import type { PresenceChannel } from 'pusher-js';
import { afterAll, expect, it } from 'vitest';
import { TEST_APP_SECRET } from '../../config.ts';
import { type ServerProcess, startServerProcess } from '../../test/server-process.ts';
import { connectClient, nextEvent, serverLibrary } from '../../test/test-realtime.ts';
import { describeWithRedis } from '../../test/test-services.ts';

// Issue 6: two real server processes (two `node server/main.ts`, as behind a load balancer)
// on one Redis: a page connected to A gets what is published on B, and presence spans both.

function startProcess(redisUrl: string): Promise<ServerProcess> {
  return startServerProcess({
    DATABASE_URL: '',
    LOG_LEVEL: 'silent',
    REDIS_URL: redisUrl,
    APP_SECRET: TEST_APP_SECRET,
    WEB_DIST_DIR: '/nonexistent',
  });
}

describeWithRedis('two server processes on one Redis', async (redisUrl) => {
  const [a, b] = await Promise.all([startProcess(redisUrl), startProcess(redisUrl)]);
  afterAll(() => Promise.all([a.stop(), b.stop()]));

  it('delivers an event published on B to a client connected to A', async () => {
    const name = `news-${randomUUID()}`;
    const client = connectClient(a.port);
    const channel = client.subscribe(name);
    await nextEvent(channel, 'pusher:subscription_succeeded');
    const received = nextEvent<{ text: string }>(channel, 'hello');
    await serverLibrary(b.port).trigger(name, 'hello', { text: 'from B' });
    expect(await received).toEqual({ text: 'from B' });
  }, 30_000);

  it('shares presence across the processes', async () => {
    const name = `presence-room-${randomUUID()}`;
    const onA = connectClient(a.port, { presence: { user_id: 'ann' } }).subscribe(
      name,
    ) as PresenceChannel;
    await nextEvent(onA, 'pusher:subscription_succeeded');
    const added = nextEvent<{ id: string }>(onA, 'pusher:member_added');
    const onB = connectClient(b.port, { presence: { user_id: 'bob' } }).subscribe(
      name,
    ) as PresenceChannel;
    const members = await nextEvent<{ count: number }>(onB, 'pusher:subscription_succeeded');
    expect(members.count).toBe(2);
    expect((await added).id).toBe('bob');
  }, 30_000);
});
