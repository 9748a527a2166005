import type { Redis } from 'ioredis';
import type { Fanout, FanoutHandler } from './fanout.ts';

/**
 * Channel frames between processes over Redis pub/sub, one Redis channel per Pusher channel,
 * subscribed while this process has subscribers to it. A message is
 * `origin \n except \n payload`: the origin lets a process skip what it published itself
 * (it delivered those at once), and plain text keeps the payload from being encoded twice.
 */
export class RedisFanout implements Fanout {
  private handler: FanoutHandler = () => {};
  private readonly prefix: string;

  constructor(
    private readonly commands: Redis,
    private readonly subscriber: Redis,
    private readonly nodeId: string,
    prefix: string,
    private readonly onPublishError: (error: Error) => void,
  ) {
    this.prefix = `${prefix}c:`;
    subscriber.on('message', (redisChannel: string, message: string) =>
      this.receive(redisChannel, message),
    );
  }

  async join(channel: string): Promise<void> {
    // One connection runs commands in order, so a join after a leave of the same channel
    // ends subscribed, however close together they come.
    await this.subscriber.subscribe(this.prefix + channel);
  }

  async leave(channel: string): Promise<void> {
    await this.subscriber.unsubscribe(this.prefix + channel);
  }

  publish(channel: string, payload: string, exceptSocketId?: string): void {
    const message = `${this.nodeId}\n${exceptSocketId ?? ''}\n${payload}`;
    this.commands.publish(this.prefix + channel, message).catch(this.onPublishError);
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
