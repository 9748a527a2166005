import type { Fanout } from './fanout.ts';

/** A connected socket as the hub sees it. */
export interface Subscriber {
  readonly socketId: string;
  /** A text frame; bytes when one payload goes to many sockets, encoded once. */
  send(payload: string | Buffer): void;
}

interface ChannelEntry {
  subscribers: Set<Subscriber>;
  /** Settles once the fan-out delivers this channel's frames from other processes. */
  ready: Promise<void>;
}

/**
 * The channels of this process and their subscribers. A frame goes to the local subscribers
 * at once and, through the fan-out, to the other processes' subscribers.
 */
export class ChannelHub {
  private readonly channels = new Map<string, ChannelEntry>();

  constructor(
    private readonly fanout: Fanout,
    private readonly onFanoutError: (error: Error, channel: string) => void,
  ) {
    fanout.onMessage((channel, payload, except) => this.deliver(channel, payload, except));
  }

  /**
   * Adds a subscriber; resolves when the channel's frames from every process reach it, so a
   * client told "subscribed" misses nothing published after that.
   */
  async join(channel: string, subscriber: Subscriber): Promise<void> {
    let entry = this.channels.get(channel);
    if (!entry) {
      entry = { subscribers: new Set(), ready: this.fanout.join(channel) };
      this.channels.set(channel, entry);
    }
    entry.subscribers.add(subscriber);
    try {
      await entry.ready;
    } catch (error) {
      this.leave(channel, subscriber);
      throw error;
    }
  }

  leave(channel: string, subscriber: Subscriber): void {
    const entry = this.channels.get(channel);
    if (!entry?.subscribers.delete(subscriber) || entry.subscribers.size > 0) return;
    this.channels.delete(channel);
    this.fanout.leave(channel).catch((error: Error) => this.onFanoutError(error, channel));
  }

  /** To every subscriber of the channel in every process, but the socket named. */
  broadcast(channel: string, payload: string, exceptSocketId?: string): void {
    this.deliver(channel, payload, exceptSocketId);
    this.fanout.publish(channel, payload, exceptSocketId);
  }

  /** To this process's subscribers only. */
  deliver(channel: string, payload: string, exceptSocketId?: string): void {
    const entry = this.channels.get(channel);
    if (!entry) return;
    const bytes = entry.subscribers.size > 1 ? Buffer.from(payload) : payload;
    for (const subscriber of entry.subscribers) {
      if (subscriber.socketId !== exceptSocketId) subscriber.send(bytes);
    }
  }
}
