import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { startTcpProxy } from '../../test/tcp-proxy.ts';
import { describeWithRedis } from '../../test/test-services.ts';
import { until } from '../../test/wait-until.ts';
import { connectRedis, quitRedis } from '../redis/connect-redis.ts';
import { connectRealtimeRedis } from './redis-connection.ts';
import { RedisFanout } from './redis-fanout.ts';

// The fan-out's Redis subscriptions across a Redis outage, on a real Redis: what the
// subscriber connection holds is read back with PUBSUB CHANNELS.

describeWithRedis('Redis fan-out subscriptions', async (url) => {
  const proxy = await startTcpProxy(url);
  const ignore = () => {};
  const commands: Redis = await connectRedis(url, { name: 'fanout-test', commandTimeoutMs: 2_000 });
  const subscriber = await connectRealtimeRedis(proxy.url, 'subscriber', ignore);
  // A prefix of its own, so other tests on the same Redis do not show up in PUBSUB CHANNELS.
  const prefix = `rt-test-${randomUUID()}:`;
  const errors: string[] = [];
  const fanout = new RedisFanout(commands, subscriber, 'node-a', prefix, (_error, during) =>
    errors.push(during),
  );
  const received: string[] = [];
  fanout.onMessage((channel, payload) => received.push(`${channel}:${payload}`));
  afterAll(async () => {
    await Promise.all([quitRedis(subscriber), quitRedis(commands)]);
    await proxy.stop();
  });

  const subscribedChannels = async () =>
    ((await commands.pubsub('CHANNELS', `${prefix}*`)) as string[])
      .map((name) => name.slice(`${prefix}c:`.length))
      .sort();
  /** What another process publishes on the channel. */
  const publishFromElsewhere = (channel: string, payload: string) =>
    commands.publish(`${prefix}c:${channel}`, `node-b\n\n${payload}`);

  it('drops, after Redis comes back, a subscription whose UNSUBSCRIBE failed while it was away', async () => {
    await fanout.join('kept');
    await fanout.join('left');
    expect(await subscribedChannels()).toEqual(['kept', 'left']);

    await proxy.stop();
    await until(() => subscriber.status !== 'ready', 'the subscriber to notice');
    // The last subscriber of `left` goes while Redis is away.
    await expect(fanout.leave('left')).rejects.toThrow();

    await proxy.start();
    await until(() => subscriber.status === 'ready', 'the subscriber to reconnect');
    // ioredis subscribes again to what it last knew of (`left` included); the reconcile
    // that follows takes `left` off again.
    await expect.poll(subscribedChannels, { timeout: 5_000 }).toEqual(['kept']);

    received.length = 0;
    await publishFromElsewhere('left', 'nobody listens');
    await publishFromElsewhere('kept', 'still delivered');
    await expect.poll(() => received).toEqual(['kept:still delivered']);
    expect(errors).toEqual([]);
  });

  it('reconciles on request: stale subscriptions go, wanted ones stay', async () => {
    await fanout.join('again');
    await fanout.leave('again');
    await fanout.join('again');
    await fanout.reconcile();
    expect(await subscribedChannels()).toEqual(['again', 'kept']);
    await fanout.leave('again');
    await fanout.reconcile();
    expect(await subscribedChannels()).toEqual(['kept']);
  });
});
