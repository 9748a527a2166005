import type { Redis } from 'ioredis';
import type { Fanout, FanoutHandler } from './fanout.ts';

/**
 * Channel frames between processes over Redis pub/sub, one Redis channel per Pusher channel,
 * subscribed while this process has subscribers to it. A message is
 * `origin \n except \n payload`: the origin lets a process skip what it published itself
 * (it delivered those at once), and plain text keeps the payload from being encoded twice.
 *
 * After a reconnection ioredis subscribes again to every channel it last knew of, including
 * one whose UNSUBSCRIBE failed while Redis was away, and a command that timed out may still
 * reach Redis later. So each time the connection is ready again the subscriptions are
 * reconciled with the channels that still have local subscribers.
 */
export class RedisFanout implements Fanout {
  private handler: FanoutHandler = () => {};
  private readonly prefix: string;
  /** Channels with local subscribers: joined and not left since. */
  private readonly wanted = new Set<string>();
  /** Channels Redis may hold us subscribed to: SUBSCRIBE sent, no UNSUBSCRIBE confirmed. */
  private readonly maybeSubscribed = new Set<string>();
  private reconciling: Promise<void> = Promise.resolve();

  constructor(
    private readonly commands: Redis,
    private readonly subscriber: Redis,
    private readonly nodeId: string,
    prefix: string,
    /** A frame not passed on (publish), or stale subscriptions left in place (reconcile). */
    private readonly onError: (error: Error, during: 'publish' | 'reconcile') => void,
  ) {
    this.prefix = `${prefix}c:`;
    subscriber.on('message', (redisChannel: string, message: string) =>
      this.receive(redisChannel, message),
    );
    // Opened already, so every 'ready' from here on follows a reconnection; ioredis has
    // queued its own re-subscriptions by then, and ours go after them on the same connection.
    subscriber.on('ready', () => {
      this.reconcile().catch((error: Error) => this.onError(error, 'reconcile'));
    });
  }

  async join(channel: string): Promise<void> {
    this.wanted.add(channel);
    this.maybeSubscribed.add(channel);
    // One connection runs commands in order, so a join after a leave of the same channel
    // ends subscribed, however close together they come.
    await this.subscriber.subscribe(this.prefix + channel);
  }

  async leave(channel: string): Promise<void> {
    this.wanted.delete(channel);
    await this.subscriber.unsubscribe(this.prefix + channel);
    if (!this.wanted.has(channel)) this.maybeSubscribed.delete(channel);
  }

  /**
   * Drops the Redis subscriptions of channels nobody here listens to any more. Resolves when
   * Redis has confirmed; runs one at a time.
   */
  reconcile(): Promise<void> {
    this.reconciling = this.reconciling.then(async () => {
      const stale = [...this.maybeSubscribed].filter((channel) => !this.wanted.has(channel));
      if (stale.length === 0) return;
      await this.subscriber.unsubscribe(...stale.map((channel) => this.prefix + channel));
      for (const channel of stale) {
        if (!this.wanted.has(channel)) this.maybeSubscribed.delete(channel);
      }
    });
    const done = this.reconciling;
    // A failed round must not stop the next one.
    this.reconciling = done.catch(() => {});
    return done;
  }

  publish(channel: string, payload: string, exceptSocketId?: string): void {
    const message = `${this.nodeId}\n${exceptSocketId ?? ''}\n${payload}`;
    this.commands
      .publish(this.prefix + channel, message)
      .catch((error: Error) => this.onError(error, 'publish'));
  }

  onMessage(handler: FanoutHandler): void {
    this.handler = handler;
  }

  async close(): Promise<void> {
    this.handler = () => {};
  }

  private receive(redisChannel: string, message: string): void {
    if (!redisChannel.startsWith(this.prefix)) return;
    const originEnd = message.indexOf('\n');
    const exceptEnd = message.indexOf('\n', originEnd + 1);
    if (originEnd < 0 || exceptEnd < 0) return;
    if (message.slice(0, originEnd) === this.nodeId) return;
    const except = message.slice(originEnd + 1, exceptEnd);
    this.handler(
      redisChannel.slice(this.prefix.length),
      message.slice(exceptEnd + 1),
      except === '' ? undefined : except,
    );
  }
}
