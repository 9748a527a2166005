import type { Redis } from 'ioredis';
import type { PresenceJoin, PresenceStore } from './presence-store.ts';
import { distinctMembers, type Member } from './protocol.ts';

export interface RedisPresenceOptions {
  nodeId: string;
  prefix: string;
  /** A process that has not beaten for this long is dead, and its members are removed. */
  nodeTtlMs?: number;
  heartbeatMs?: number;
  /** Users whose last connection was on a dead process: nobody else will announce them. */
  onMembersGone: (channel: string, userIds: string[]) => void;
  /** Users of this process put back after Redis forgot them (a restart, a long outage). */
  onMembersBack: (channel: string, members: Member[]) => void;
  onError: (error: Error, during: string) => void;
}

type Replies = [Error | null, unknown][] | null;

function results(replies: Replies): unknown[] {
  if (!replies) throw new Error('presence transaction was discarded');
  return replies.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}

function parseMembers(values: unknown): Member[] {
  const members: Member[] = [];
  for (const value of Array.isArray(values) ? values : []) {
    try {
      const member = JSON.parse(String(value)) as Member;
      if (typeof member.user_id === 'string') members.push(member);
    } catch {
      // A value we did not write: skip it rather than fail the channel.
    }
  }
  return members;
}

/**
 * Presence shared by every process through Redis. Per channel a hash of connections
 * (`{node}/{socket}` → member); per process an expiring "alive" key refreshed by a heartbeat,
 * and the set of channels it has members on. Each heartbeat also looks for processes whose
 * alive key expired (a crash, a kill -9) and removes their connections, announcing the users
 * who left with them; one process does that per dead one, by a lock.
 */
export class RedisPresenceStore implements PresenceStore {
  private readonly nodeId: string;
  private readonly prefix: string;
  private readonly ttlMs: number;
  private readonly heartbeatMs: number;
  /** This process's connections, to put back if Redis loses them. */
  private readonly local = new Map<string, Map<string, Member>>();
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;

  private constructor(
    private readonly redis: Redis,
    private readonly options: RedisPresenceOptions,
  ) {
    this.nodeId = options.nodeId;
    this.prefix = options.prefix;
    this.ttlMs = options.nodeTtlMs ?? 30_000;
    this.heartbeatMs = options.heartbeatMs ?? 10_000;
  }

  /** Registers this process as alive before any member joins. */
  static async start(redis: Redis, options: RedisPresenceOptions): Promise<RedisPresenceStore> {
    const store = new RedisPresenceStore(redis, options);
    await store.heartbeat();
    store.timer = setInterval(() => {
      store.beating ??= store
        .heartbeat()
        .then(() => store.reapDeadNodes())
        .catch((error: Error) => options.onError(error, 'heartbeat'))
        .finally(() => {
          store.beating = undefined;
        });
    }, store.heartbeatMs);
    // The heartbeat must not keep a process (or a test worker) alive on its own.
    store.timer.unref();
    return store;
  }

  async join(channel: string, socketId: string, member: Member): Promise<PresenceJoin> {
    const key = this.channelKey(channel);
    const [created, , values] = results(
      await this.redis
        .multi()
        .hset(key, this.field(socketId), JSON.stringify(member))
        .sadd(this.nodeChannelsKey(this.nodeId), channel)
        .hvals(key)
        .exec(),
    );
    let connections = this.local.get(channel);
    if (!connections) {
      connections = new Map();
      this.local.set(channel, connections);
    }
    connections.set(socketId, member);
    const all = parseMembers(values);
    const ofUser = all.filter((other) => other.user_id === member.user_id).length;
    return { members: distinctMembers(all), added: created === 1 && ofUser === 1 };
  }

  async leave(channel: string, socketId: string, userId: string): Promise<boolean> {
    const connections = this.local.get(channel);
    connections?.delete(socketId);
    const transaction = this.redis
      .multi()
      .hdel(this.channelKey(channel), this.field(socketId))
      .hvals(this.channelKey(channel));
    if (connections?.size === 0) {
      this.local.delete(channel);
      transaction.srem(this.nodeChannelsKey(this.nodeId), channel);
    }
    const [deleted, values] = results(await transaction.exec());
    // Already gone means a reaper removed it and announced the user.
    return deleted === 1 && !parseMembers(values).some((other) => other.user_id === userId);
  }

  async members(channel: string): Promise<Member[]> {
    return distinctMembers(parseMembers(await this.redis.hvals(this.channelKey(channel))));
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
    const transaction = this.redis.multi();
    for (const [channel, connections] of this.local) {
      const fields = [...connections.keys()].map((socketId) => this.field(socketId));
      if (fields.length > 0) transaction.hdel(this.channelKey(channel), ...fields);
    }
    this.local.clear();
    transaction
      .del(this.aliveKey(this.nodeId), this.nodeChannelsKey(this.nodeId))
      .srem(this.nodesKey(), this.nodeId);
    results(await transaction.exec());
  }

  /** Refreshes the alive key; puts this process's connections back if Redis had lost it. */
  async heartbeat(): Promise<void> {
    const [existed] = results(
      await this.redis
        .multi()
        .exists(this.aliveKey(this.nodeId))
        .set(this.aliveKey(this.nodeId), '1', 'PX', this.ttlMs)
        .sadd(this.nodesKey(), this.nodeId)
        .exec(),
    );
    if (existed === 0 && this.local.size > 0) await this.restore();
  }

  /** Removes the connections of every process whose alive key has expired. */
  async reapDeadNodes(): Promise<void> {
    const nodes = (await this.redis.smembers(this.nodesKey())).filter((id) => id !== this.nodeId);
    if (nodes.length === 0) return;
    const alive = results(
      await this.redis.pipeline(nodes.map((id) => ['exists', this.aliveKey(id)])).exec(),
    );
    for (const [index, node] of nodes.entries()) {
      if (alive[index] !== 0) continue;
      const lock = `${this.prefix}reap:${node}`;
      if ((await this.redis.set(lock, this.nodeId, 'PX', this.ttlMs, 'NX')) !== 'OK') continue;
      for (const channel of await this.redis.smembers(this.nodeChannelsKey(node))) {
        await this.removeNodeFrom(channel, node);
      }
      results(
        await this.redis.multi().del(this.nodeChannelsKey(node)).srem(this.nodesKey(), node).exec(),
      );
    }
  }

  private async removeNodeFrom(channel: string, node: string): Promise<void> {
    const key = this.channelKey(channel);
    const theirs = (await this.redis.hkeys(key)).filter((field) => field.startsWith(`${node}/`));
    if (theirs.length === 0) return;
    // The removal and the read of who is left are one step, as in leave().
    const [values, , rest] = results(
      await this.redis
        .multi()
        .hmget(key, ...theirs)
        .hdel(key, ...theirs)
        .hvals(key)
        .exec(),
    );
    const remaining = new Set(parseMembers(rest).map((member) => member.user_id));
    const gone = distinctMembers(parseMembers((values as unknown[]).filter(Boolean)))
      .map((member) => member.user_id)
      .filter((userId) => !remaining.has(userId));
    if (gone.length > 0) this.options.onMembersGone(channel, gone);
  }

  private async restore(): Promise<void> {
    for (const [channel, connections] of this.local) {
      const back: Member[] = [];
      for (const [socketId, member] of connections) {
        const { added } = await this.join(channel, socketId, member);
        if (added) back.push(member);
      }
      if (back.length > 0) this.options.onMembersBack(channel, back);
    }
  }

  private field(socketId: string): string {
    return `${this.nodeId}/${socketId}`;
  }

  private channelKey(channel: string): string {
    return `${this.prefix}p:${channel}`;
  }

  private aliveKey(node: string): string {
    return `${this.prefix}n:${node}`;
  }

  private nodeChannelsKey(node: string): string {
    return `${this.prefix}nc:${node}`;
  }

  private nodesKey(): string {
    return `${this.prefix}nodes`;
  }
}
