import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { describeWithRedis } from '../../test/test-services.ts';
import { MemoryPresenceStore, type PresenceStore } from './presence-store.ts';
import type { Member } from './protocol.ts';
import { quitRedis } from './redis-connection.ts';
import { RedisPresenceStore } from './redis-presence-store.ts';

const ann: Member = { user_id: 'ann', user_info: { name: 'Ann' } };
const bob: Member = { user_id: 'bob' };
const unique = () => `presence-${randomUUID()}`;

/** What every store must do; `stores()` gives two views of one membership (two processes). */
function storeContract(stores: () => [PresenceStore, PresenceStore]): void {
  it('announces a user once however many connections, and their going with the last', async () => {
    const [first, second] = stores();
    const channel = unique();
    expect(await first.join(channel, '1.1', ann)).toEqual({ members: [ann], added: true });
    const bobJoins = await second.join(channel, '2.1', bob);
    expect(bobJoins.added).toBe(true);
    expect(bobJoins.members).toHaveLength(2);
    expect((await first.join(channel, '1.2', bob)).added).toBe(false);
    expect(await second.members(channel)).toHaveLength(2);

    expect(await second.leave(channel, '2.1', 'bob')).toBe(false);
    expect(await first.leave(channel, '1.2', 'bob')).toBe(true);
    expect(await first.leave(channel, '1.2', 'bob')).toBe(false);
    expect(await second.members(channel)).toEqual([ann]);
    expect(await first.leave(channel, '1.1', 'ann')).toBe(true);
    expect(await first.members(channel)).toEqual([]);
  });
}

describe('MemoryPresenceStore', () => {
  const store = new MemoryPresenceStore();
  storeContract(() => [store, store]);
});

describeWithRedis('RedisPresenceStore', async (url) => {
  const prefix = `rt-test-${randomUUID()}:`;
  const connections: Redis[] = [];
  const gone: [string, string[]][] = [];
  const back: [string, Member[]][] = [];

  async function startNode(timings: { nodeTtlMs?: number; heartbeatMs?: number } = {}) {
    const redis = new Redis(url);
    connections.push(redis);
    const nodeId = randomUUID();
    const store = await RedisPresenceStore.start(redis, {
      nodeId,
      prefix,
      ...timings,
      onMembersGone: (channel, userIds) => gone.push([channel, userIds]),
      onMembersBack: (channel, members) => back.push([channel, members]),
      onError: () => {},
    });
    return { store, redis, nodeId };
  }

  const first = await startNode();
  const second = await startNode();
  afterAll(async () => {
    await Promise.allSettled([first.store.close(), second.store.close()]);
    await Promise.all(connections.map((redis) => quitRedis(redis)));
  });

  storeContract(() => [first.store, second.store]);

  it('removes the members of a process that stopped beating, once, announcing who left', async () => {
    const channel = unique();
    const watcher = await startNode({ nodeTtlMs: 300, heartbeatMs: 100 });
    const dying = await startNode({ nodeTtlMs: 300, heartbeatMs: 100 });
    await watcher.store.join(channel, '1.1', ann);
    await dying.store.join(channel, '9.1', bob);
    await dying.store.join(channel, '9.2', ann);
    // A crash: the process and its connection vanish without a word.
    dying.redis.disconnect();

    await expect
      .poll(() => gone.filter(([name]) => name === channel), { timeout: 3_000 })
      .toEqual([[channel, ['bob']]]);
    expect(await watcher.store.members(channel)).toEqual([ann]);
    await watcher.store.close();
    await dying.store.close().catch(() => {});
  });

  it('puts its own members back when Redis forgot them', async () => {
    const channel = unique();
    await first.store.join(channel, '1.1', ann);
    // As after a Redis restart without persistence.
    await first.redis.del(`${prefix}p:${channel}`, `${prefix}n:${first.nodeId}`);
    expect(await second.store.members(channel)).toEqual([]);
    await first.store.heartbeat();
    expect(await second.store.members(channel)).toEqual([ann]);
    expect(back).toContainEqual([channel, [ann]]);
    await first.store.leave(channel, '1.1', 'ann');
  });

  it('leaves nothing behind when a process closes', async () => {
    const node = await startNode();
    const channel = unique();
    await node.store.join(channel, '5.1', bob);
    await node.store.close();
    expect(await first.store.members(channel)).toEqual([]);
    expect(await first.redis.sismember(`${prefix}nodes`, node.nodeId)).toBe(0);
  });
});
