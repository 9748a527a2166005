import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { PresenceChannel } from 'pusher-js';
import { afterAll, expect, it } from 'vitest';
import { describeWithRedis } from '../../test/test-services.ts';
import { connectClient, nextEvent, serverLibrary, TEST_APP_SECRET } from './test-realtime.ts';

// Issue 6: two real server processes (two `node server/main.ts`, as behind a load balancer)
// on one Redis: a page connected to A gets what is published on B, and presence spans both.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startProcess(redisUrl: string): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    stdio: 'ignore',
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: 'memory://',
      DATABASE_URL: '',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      REDIS_URL: redisUrl,
      APP_SECRET: TEST_APP_SECRET,
      WEB_DIST_DIR: '/nonexistent',
    },
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return { port, child };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not become ready');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describeWithRedis('two server processes on one Redis', async (redisUrl) => {
  const [a, b] = await Promise.all([startProcess(redisUrl), startProcess(redisUrl)]);
  afterAll(async () => {
    for (const { child } of [a, b]) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  });

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
