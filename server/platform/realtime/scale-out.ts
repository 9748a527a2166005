import type { FastifyBaseLogger } from 'fastify';
import { type Fanout, LocalFanout } from './fanout.ts';
import { MemoryPresenceStore, type PresenceStore } from './presence-store.ts';
import type { Member } from './protocol.ts';
import { connectRealtimeRedis, quitRedis, REALTIME_REDIS_PREFIX } from './redis-connection.ts';
import { RedisFanout } from './redis-fanout.ts';
import { RedisPresenceStore } from './redis-presence-store.ts';

export interface ScaleOutOptions {
  redisUrl: string | undefined;
  nodeId: string;
  log: FastifyBaseLogger;
  /** Presence changes nobody's socket caused: a dead process's users, or ours put back. */
  onMembersGone: (channel: string, userIds: string[]) => void;
  onMembersBack: (channel: string, members: Member[]) => void;
  presenceHeartbeatMs?: number | undefined;
  presenceNodeTtlMs?: number | undefined;
}

/** How channels and presence reach beyond this process. */
export interface ScaleOut {
  fanout: Fanout;
  presence: PresenceStore;
  close(): Promise<void>;
}

/**
 * With REDIS_URL, channels travel over Redis pub/sub and presence lives in Redis, so any
 * number of processes behind a load balancer act as one server. Without it, both stay in
 * this process: the single-node default.
 */
export async function openScaleOut(options: ScaleOutOptions): Promise<ScaleOut> {
  if (!options.redisUrl) {
    const presence = new MemoryPresenceStore();
    return { fanout: new LocalFanout(), presence, close: () => presence.close() };
  }
  const { log } = options;
  const connectionError = (error: Error) =>
    log.warn({ err: error }, 'realtime Redis connection failed');
  const commands = await connectRealtimeRedis(options.redisUrl, 'commands', connectionError);
  const subscriber = await connectRealtimeRedis(
    options.redisUrl,
    'subscriber',
    connectionError,
  ).catch(async (error: unknown) => {
    await quitRedis(commands);
    throw error;
  });
  const fanout = new RedisFanout(
    commands,
    subscriber,
    options.nodeId,
    REALTIME_REDIS_PREFIX,
    (error, during) =>
      log.warn(
        { err: error, during },
        during === 'publish'
          ? 'realtime event not passed to the other processes'
          : 'realtime Redis subscriptions not reconciled',
      ),
  );
  let presence: RedisPresenceStore;
  try {
    presence = await RedisPresenceStore.start(commands, {
      nodeId: options.nodeId,
      prefix: REALTIME_REDIS_PREFIX,
      heartbeatMs: options.presenceHeartbeatMs,
      nodeTtlMs: options.presenceNodeTtlMs,
      onMembersGone: options.onMembersGone,
      onMembersBack: options.onMembersBack,
      onError: (error, during) => log.warn({ err: error, during }, 'realtime presence failed'),
    });
  } catch (error) {
    await Promise.all([quitRedis(subscriber), quitRedis(commands)]);
    throw error;
  }
  return {
    fanout,
    presence,
    close: async () => {
      await presence
        .close()
        .catch((error: Error) => log.warn({ err: error }, 'realtime presence not cleared'));
      await fanout.close();
      await Promise.all([quitRedis(subscriber), quitRedis(commands)]);
    },
  };
}
