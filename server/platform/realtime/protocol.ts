// The Pusher Channels protocol (version 7) as the built-in server speaks it: names, limits and
// the shape of the frames. Limits follow Pusher's published ones, so an app that works here
// keeps working on a real cluster.

export const PROTOCOL_VERSION = '7';

/** Seconds of silence after which the server pings; told to the client, which pings sooner. */
export const ACTIVITY_TIMEOUT_S = 120;
/** How long a ping may wait for its pong before the connection counts as dead. */
export const PONG_TIMEOUT_MS = 30_000;

export const LIMITS = {
  /** Largest frame a client may send (ws `maxPayload`); a bigger one closes with 1009. */
  clientMessageBytes: 10 * 1024,
  /** Pusher's event size limit, on the `data` text of the HTTP events API. */
  eventDataBytes: 10 * 1024,
  channelsPerEvent: 100,
  eventsPerBatch: 10,
  /** The `pusher` library refuses longer channel and event names too. */
  nameLength: 200,
  presenceMembers: 100,
  userIdLength: 128,
  userInfoBytes: 1024,
  /** Keeps one socket from holding an unbounded set of channels. */
  subscriptionsPerSocket: 100,
  /** Unsent bytes a slow client may pile up before it is dropped (it reconnects later). */
  bufferedBytes: 1024 * 1024,
} as const;

/**
 * What one client may cost us. A browser of the product sends a subscribe, a ping now and
 * then, and on reconnecting one subscribe per channel it had (at most 100): the burst covers
 * that; the rate is Pusher's own for client events. Each subscribe to a channel new to this
 * process waits on Redis, so a socket's waiting work is capped too, and one address cannot
 * hold an unbounded number of sockets. Options of the built-in server may change them
 * (tests, the benchmark); these are the defaults.
 */
export const SOCKET_LIMITS = {
  /** Frames a client may send per second, on average (token bucket refill). */
  framesPerSecond: 10,
  /** Frames it may send at once (token bucket size): a reconnect resubscribing everything. */
  frameBurst: LIMITS.subscriptionsPerSocket + 20,
  /** Subscribes and unsubscribes of one socket waiting their turn (on Redis). */
  queuedSteps: LIMITS.subscriptionsPerSocket + 28,
  /** Open sockets (and upgrades under way) per client address. */
  connectionsPerAddress: 100,
};

export type SocketLimits = typeof SOCKET_LIMITS;

/**
 * Codes of `pusher:error` and of the close frame. By the protocol, 4000–4099 tell the client
 * not to reconnect as is, 4100–4199 to reconnect after a back-off, 4200–4299 at once.
 */
export const ERROR_CODES = {
  appKeyUnknown: 4001,
  invalidVersion: 4006,
  unsupportedProtocol: 4007,
  noProtocol: 4008,
  overCapacity: 4100,
  reconnect: 4200,
  pongTimeout: 4201,
  /**
   * 4300–4399 are "any other error"; Pusher uses 4301 for client events over its rate. We
   * close with it when a client sends frames faster than SOCKET_LIMITS allow: pusher-js
   * does not reconnect by itself on a 43xx close, and the product's page comes back after
   * its 5 s reconnect delay.
   */
  rateLimited: 4301,
} as const;

/** The refusal of the `protocol` query parameter, or undefined when it is ours. */
export function protocolProblem(
  protocol: string | null,
): { code: number; message: string } | undefined {
  if (protocol === null || protocol === '') {
    return { code: ERROR_CODES.noProtocol, message: 'No protocol version supplied' };
  }
  if (!/^\d{1,6}$/.test(protocol)) {
    return { code: ERROR_CODES.invalidVersion, message: 'Invalid version string format' };
  }
  if (protocol !== PROTOCOL_VERSION) {
    return { code: ERROR_CODES.unsupportedProtocol, message: 'Unsupported protocol version' };
  }
  return undefined;
}

const CHANNEL_NAME = /^[A-Za-z0-9_\-=@,.;]+$/;
const EVENT_NAME = /^[^\s]+$/;
export const SOCKET_ID = /^\d+\.\d+$/;

export type ChannelKind = 'public' | 'private' | 'presence';

export function isChannelName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= LIMITS.nameLength && CHANNEL_NAME.test(name);
}

export function isEventName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= LIMITS.nameLength && EVENT_NAME.test(name);
}

/** Private (and encrypted private) and presence channels need a signed subscription. */
export function channelKind(channel: string): ChannelKind {
  if (channel.startsWith('presence-')) return 'presence';
  if (channel.startsWith('private-')) return 'private';
  return 'public';
}

/**
 * One frame to a client. Pusher sends `data` as JSON text (pusher-js decodes it), except for
 * `pusher:error`, whose data is an object.
 */
export function frame(event: string, data: unknown, channel?: string): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  return JSON.stringify(
    channel === undefined ? { event, data: text } : { event, channel, data: text },
  );
}

export function errorFrame(code: number | null, message: string): string {
  return JSON.stringify({ event: 'pusher:error', data: { code, message } });
}

/** A presence member as channel_data names it, with the user id as text. */
export interface Member {
  user_id: string;
  user_info?: unknown;
}

/** `pusher_internal:subscription_succeeded` data of a presence channel; one entry per user. */
export function presenceData(members: readonly Member[]) {
  const hash: Record<string, unknown> = {};
  for (const member of members) hash[member.user_id] = member.user_info ?? null;
  const ids = Object.keys(hash);
  return { presence: { ids, hash, count: ids.length } };
}

/** Distinct users in connection order, the last connection's user_info winning. */
export function distinctMembers(members: Iterable<Member>): Member[] {
  const byUser = new Map<string, Member>();
  for (const member of members) byUser.set(member.user_id, member);
  return [...byUser.values()];
}
