import { randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type RawData, WebSocket } from 'ws';
import type { ChannelHub, Subscriber } from './channel-hub.ts';
import type { PresenceStore } from './presence-store.ts';
import {
  channelKind,
  ERROR_CODES,
  errorFrame,
  frame,
  isChannelName,
  LIMITS,
  type Member,
  presenceData,
  type SocketLimits,
} from './protocol.ts';
import { type AppCredentials, isValidChannelAuth } from './signatures.ts';
import { TokenBucket } from './token-bucket.ts';

export interface ConnectionContext {
  app: AppCredentials;
  hub: ChannelHub;
  presence: PresenceStore;
  log: FastifyBaseLogger;
  activityTimeoutS: number;
  limits: SocketLimits;
}

type Message = { event?: unknown; data?: unknown; channel?: unknown };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Random, so that one client cannot guess another's id (it is part of what gets signed). */
const newSocketId = () => `${randomInt(1e6, 1e12)}.${randomInt(1e6, 1e12)}`;

/** The member a presence subscription's channel_data names, or undefined when it is unfit. */
function parseMember(channelData: string): Member | undefined {
  let value: unknown;
  try {
    value = JSON.parse(channelData);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const id = typeof value.user_id === 'number' ? String(value.user_id) : value.user_id;
  if (typeof id !== 'string' || id === '' || id.length > LIMITS.userIdLength) return undefined;
  if (value.user_info === undefined) return { user_id: id };
  if (Buffer.byteLength(JSON.stringify(value.user_info)) > LIMITS.userInfoBytes) return undefined;
  return { user_id: id, user_info: value.user_info };
}

/**
 * One client socket speaking the Pusher protocol. Subscriptions and their undoing run one
 * after the other per socket (they wait on Redis), so an unsubscribe or a close never
 * overtakes the subscribe it undoes. A client that sends faster than its frame budget is
 * closed (4301), and one whose waiting work outgrows its cap is asked to come back later
 * (4100): otherwise subscribing and unsubscribing in a loop while Redis is slow would grow
 * our memory, and our Redis commands, without bound.
 */
export class ClientConnection implements Subscriber {
  readonly socketId = newSocketId();
  /** When the client last said anything, and when we pinged it since (if we did). */
  lastSeen = Date.now();
  pingSentAt: number | undefined;
  /** Subscribed channels, with this socket's member on presence ones. */
  private readonly channels = new Map<string, Member | null>();
  private queue: Promise<void> = Promise.resolve();
  /** Steps in the queue, the running one included. */
  private queued = 0;
  private readonly frames: TokenBucket;

  constructor(
    private readonly ws: WebSocket,
    private readonly context: ConnectionContext,
  ) {
    this.frames = new TokenBucket(context.limits.frameBurst, context.limits.framesPerSecond);
  }

  open(): void {
    this.send(
      frame('pusher:connection_established', {
        socket_id: this.socketId,
        activity_timeout: this.context.activityTimeoutS,
      }),
    );
  }

  send(payload: string | Buffer): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    // A client that does not read would grow our memory without bound; it reconnects later.
    if (this.ws.bufferedAmount > LIMITS.bufferedBytes) {
      this.close(ERROR_CODES.overCapacity, 'Client too slow');
      return;
    }
    this.ws.send(payload, { binary: false });
  }

  close(code: number, reason: string): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(code, reason);
  }

  /** Cuts the socket without waiting for the client's close frame. */
  terminate(): void {
    this.ws.terminate();
  }

  ping(now: number): void {
    this.pingSentAt = now;
    this.send(frame('pusher:ping', {}));
  }

  receive(raw: RawData, isBinary: boolean): void {
    // Frames that were on their way when we closed the socket are not worth any work.
    if (this.ws.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    if (!this.frames.take(now)) {
      this.close(ERROR_CODES.rateLimited, 'Rate limit exceeded');
      return;
    }
    this.lastSeen = now;
    this.pingSentAt = undefined;
    let message: Message;
    try {
      if (isBinary) throw new Error('binary frame');
      const parsed: unknown = JSON.parse(raw.toString());
      if (!isRecord(parsed)) throw new Error('not an object');
      message = parsed;
    } catch {
      this.send(errorFrame(null, 'Invalid message: expected a JSON event'));
      return;
    }
    const { event, data } = message;
    if (event === 'pusher:ping') this.send(frame('pusher:pong', {}));
    else if (event === 'pusher:pong') return;
    else if (event === 'pusher:subscribe') this.request(() => this.subscribe(data));
    else if (event === 'pusher:unsubscribe') {
      const channel = isRecord(data) ? data.channel : undefined;
      if (typeof channel === 'string') this.request(() => this.unsubscribe(channel));
    } else if (typeof event === 'string' && event.startsWith('client-')) {
      // Client events are off, as on a new Pusher app: the product never sends them, and a
      // page must not be able to speak on a channel as if it were the server.
      this.send(errorFrame(null, 'Client events are not enabled on this server'));
    } else {
      this.send(errorFrame(null, `Unsupported event: ${String(event).slice(0, 50)}`));
    }
  }

  /** Leaves every channel (announcing departures); resolves when that is done. */
  closed(): Promise<void> {
    return this.enqueue(async () => {
      for (const channel of [...this.channels.keys()]) await this.unsubscribe(channel);
    });
  }

  /** A step the client asked for: queued while there is room, else the client is sent away. */
  private request(step: () => Promise<void>): void {
    if (this.queued >= this.context.limits.queuedSteps) {
      this.close(ERROR_CODES.overCapacity, 'Too many requests waiting');
      return;
    }
    void this.enqueue(step);
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    this.queued += 1;
    this.queue = this.queue
      .then(step)
      .catch((error: Error) => {
        // Redis is away: ask the client to come back after a back-off rather than leave it
        // half subscribed.
        this.context.log.warn({ err: error, socketId: this.socketId }, 'realtime step failed');
        this.close(ERROR_CODES.overCapacity, 'Try again later');
      })
      .finally(() => {
        this.queued -= 1;
      });
    return this.queue;
  }

  private async subscribe(data: unknown): Promise<void> {
    const channel = isRecord(data) ? data.channel : undefined;
    if (!isRecord(data) || !isChannelName(channel)) {
      this.send(errorFrame(null, 'Invalid channel name'));
      return;
    }
    const { hub, presence } = this.context;
    const member = this.channels.get(channel);
    if (member !== undefined) {
      // Subscribed already: say so again rather than join twice.
      const members = member ? await presence.members(channel) : [];
      this.succeeded(channel, member ? presenceData(members) : {});
      return;
    }
    if (this.channels.size >= LIMITS.subscriptionsPerSocket) {
      this.refuse(channel, 'LimitReached', 'Too many channels on one connection');
      return;
    }
    const kind = channelKind(channel);
    let joining: Member | null = null;
    if (kind !== 'public') {
      const channelData = kind === 'presence' ? data.channel_data : undefined;
      if (kind === 'presence' && typeof channelData !== 'string') {
        this.refuseAuth(channel, 'A presence channel needs channel_data');
        return;
      }
      const signed = isValidChannelAuth(
        this.context.app,
        data.auth,
        this.socketId,
        channel,
        channelData as string | undefined,
      );
      if (!signed) {
        this.refuseAuth(channel, `Invalid signature for ${channel}`);
        return;
      }
      if (typeof channelData === 'string') {
        joining = parseMember(channelData) ?? null;
        if (!joining) {
          this.refuseAuth(channel, 'channel_data needs a user_id (and user_info of 1 KB at most)');
          return;
        }
      }
    }

    this.channels.set(channel, joining);
    await hub.join(channel, this);
    if (!joining) {
      this.succeeded(channel, {});
      return;
    }
    const { members, added } = await presence.join(channel, this.socketId, joining);
    if (added && members.length > LIMITS.presenceMembers) {
      this.channels.delete(channel);
      hub.leave(channel, this);
      await presence.leave(channel, this.socketId, joining.user_id);
      this.refuse(channel, 'LimitReached', `At most ${LIMITS.presenceMembers} members`);
      return;
    }
    this.succeeded(channel, presenceData(members));
    if (added) {
      hub.broadcast(
        channel,
        frame('pusher_internal:member_added', joining, channel),
        this.socketId,
      );
    }
  }

  private async unsubscribe(channel: string): Promise<void> {
    const member = this.channels.get(channel);
    if (member === undefined) return;
    this.channels.delete(channel);
    const { hub, presence } = this.context;
    hub.leave(channel, this);
    if (member && (await presence.leave(channel, this.socketId, member.user_id))) {
      hub.broadcast(
        channel,
        frame('pusher_internal:member_removed', { user_id: member.user_id }, channel),
      );
    }
  }

  private succeeded(channel: string, data: unknown): void {
    this.send(frame('pusher_internal:subscription_succeeded', data, channel));
  }

  /** Told to the channel (pusher-js raises `pusher:subscription_error` on it). */
  private refuse(channel: string, type: string, error: string, status = 429): void {
    this.send(frame('pusher:subscription_error', { type, error, status }, channel));
  }

  /**
   * Refused authorisation of one channel, as Pusher answers it: an error on that channel
   * only. The connection is fine (a 4009 `pusher:error` would say it is not, and 4000–4099
   * mean "do not reconnect"), and its other channels stay.
   */
  private refuseAuth(channel: string, message: string): void {
    this.refuse(channel, 'AuthError', message, 401);
  }
}
