import Pusher, { type Channel, type ConnectionManager } from 'pusher-js';
import {
  broadcastingAuthEndpoint,
  type RealtimeSettings,
  systemEventsChannel,
} from '#shared/contracts/realtime.ts';
import { isApiError } from '../api/api-error.ts';
import { call } from '../api/client.ts';
import {
  INITIAL_STATE,
  type PolicyCommand,
  type PolicyEvent,
  type PolicyState,
  step,
} from './connection-policy.ts';

/** Idle time before the client pings (§9 gives 5000 and 20000 ms: 20 s idle, 5 s for the pong). */
export const PING_INTERVAL_MS = 20_000;
export const PONG_TIMEOUT_MS = 5_000;
/** An attempt that neither opens nor fails in this time (a silent network) counts as failed. */
export const CONNECT_TIMEOUT_MS = 10_000;

export interface RealtimeOptions {
  settings: RealtimeSettings;
  userId: number;
  /** Every event on the user's channel but Pusher's own. */
  onEvent: (name: string, data: unknown) => void;
  /**
   * Other channels to be in while connected (the fleet's, while a screen wants them), read
   * again whenever `onWantedChange` says they changed; their events go to `onChannelEvent`.
   */
  extraChannels?: {
    wanted: () => readonly string[];
    onWantedChange: (watch: () => void) => () => void;
    onChannelEvent: (channel: string, name: string, data: unknown) => void;
  };
  /**
   * The channel was joined (again): events published before this moment never reach the
   * page, so what the page shows may need fetching anew.
   */
  onJoined?: () => void;
}

export interface RealtimeConnection {
  /** Closes the socket for good: no reconnection (§4 "closes and stops reconnecting at logout"). */
  stop(): void;
  /** For tests and diagnostics: pusher-js's state name. */
  readonly state: string;
  /** For tests and diagnostics: the policy's phase. */
  readonly phase: PolicyState['phase'];
}

function endpoint(settings: RealtimeSettings) {
  if (settings.host) {
    return {
      wsHost: settings.host,
      wsPort: settings.port ?? 80,
      wssPort: settings.port ?? 443,
      forceTLS: settings.tls,
    };
  }
  // The built-in server lives on the page's own origin.
  const secure = window.location.protocol === 'https:';
  const port = Number(window.location.port) || (secure ? 443 : 80);
  return { wsHost: window.location.hostname, wsPort: port, wssPort: port, forceTLS: secure };
}

/** pusher-js connects from its constructor and on page load; here the policy says when. */
class PolicyDrivenPusher extends Pusher {
  override connect(): void {
    // Attempts go through `connection.connect()` when connection-policy.ts asks for one.
  }
}

/** The shape of pusher-js's connection strategies (its public types leave it out). */
interface AttemptStrategy {
  isSupported(): boolean;
  connect(
    minPriority: number,
    callback: (error: unknown, handshake?: unknown) => void,
  ): { abort(): void; forceMinPriority(priority: number): void };
}

/**
 * pusher-js's default strategy retries a failed attempt itself (15, 30, 60 s per try) and
 * never says it failed. Each connect() becomes one attempt over the WebSocket transport of
 * that strategy, whose failure goes to `onFailure` instead, so the policy decides the next.
 */
function singleAttempts(connection: ConnectionManager, onFailure: (error: unknown) => void) {
  const wrap = (strategy: unknown, useTLS: boolean): AttemptStrategy | undefined => {
    const transports = (strategy as { transports?: Record<string, AttemptStrategy> }).transports;
    const transport = transports?.[useTLS ? 'wss' : 'ws'];
    if (!transport) return undefined;
    return {
      isSupported: () => transport.isSupported(),
      connect: (minPriority, callback) =>
        transport.connect(minPriority, (error, handshake) =>
          error ? onFailure(error) : callback(null, handshake),
        ),
    };
  };
  const single = wrap(connection.strategy, connection.usingTLS);
  if (!single) {
    // A pusher-js release without these internals: it keeps its own retry timings.
    console.warn('Realtime: the connection strategy could not be taken over');
    return;
  }
  connection.strategy = single;
  const build = connection.options.getStrategy;
  connection.options.getStrategy = (options: { useTLS: boolean }) => {
    const strategy = build(options);
    return wrap(strategy, options.useTLS) ?? strategy;
  };
}

/**
 * A network error, as opposed to a protocol one: pusher-js labels a failed socket
 * `WebSocketError`, and also a close frame with Pusher's error code inside.
 */
function isNetworkError(error: unknown): boolean {
  const { type, error: inner } = (error ?? {}) as { type?: string; error?: { type?: string } };
  return type === 'WebSocketError' && inner?.type !== 'PusherError';
}

/**
 * Connects the signed-in user to their system-events presence channel (§4) with pusher-js,
 * joining it through our broadcasting/auth (§7). When to connect, retry and join is decided
 * by connection-policy.ts (§8/§9); this file only reports to it and carries it out.
 */
export function connectRealtime({
  settings,
  userId,
  onEvent,
  onJoined,
  extraChannels,
}: RealtimeOptions): RealtimeConnection {
  const channelName = systemEventsChannel(userId);
  /** Extra channels subscribed on this connection. */
  const extras = new Set<string>();
  let policy: PolicyState = INITIAL_STATE;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let joinTimer: ReturnType<typeof setTimeout> | undefined;

  const pusher = new PolicyDrivenPusher(settings.key, {
    cluster: settings.cluster,
    ...endpoint(settings),
    enabledTransports: ['ws', 'wss'],
    disableStats: true,
    activityTimeout: PING_INTERVAL_MS,
    pongTimeout: PONG_TIMEOUT_MS,
    unavailableTimeout: CONNECT_TIMEOUT_MS,
    channelAuthorization: {
      endpoint: broadcastingAuthEndpoint.url,
      transport: 'ajax',
      customHandler: (params, callback) => {
        call(broadcastingAuthEndpoint, {
          body: { socket_id: params.socketId, channel_name: params.channelName },
        }).then(
          (answer) => callback(null, answer),
          (error: unknown) => {
            callback(error instanceof Error ? error : new Error(String(error)), null);
            // An extra channel refused (say a role changed) leaves the connection as it is.
            if (params.channelName !== channelName) {
              extras.delete(params.channelName);
              return;
            }
            // 401/403 is a refusal; no answer, 429 or 5xx are worth another try.
            dispatch({ type: 'joinFailed', status: isApiError(error) ? error.status : 0 });
          },
        );
      },
    },
  });
  const { connection } = pusher;
  singleAttempts(connection, (error) =>
    dispatch({ type: 'socketFailed', network: isNetworkError(error) }),
  );

  connection.bind(
    'state_change',
    ({ previous, current }: { previous: string; current: string }) => {
      if (current === 'connected') dispatch({ type: 'connected' });
      // Leaving `connected` on its own, or an attempt that timed out.
      else if (previous === 'connected' || current === 'unavailable' || current === 'failed') {
        dispatch({ type: 'socketFailed', network: false });
      }
    },
  );
  connection.bind('error', (error: { type?: string }) => {
    // A `PusherError` message leaves the socket open; if the server closes it, that shows.
    if (error.type === 'WebSocketError' || error.type === 'HandshakeError') {
      dispatch({ type: 'socketFailed', network: isNetworkError(error) });
    }
  });
  // pusher-js is about to retry on its own timing (after a close, or told to back off).
  connection.bind('connecting_in', () => dispatch({ type: 'socketFailed', network: false }));

  function dispatch(event: PolicyEvent) {
    const next = step(policy, event);
    policy = next.state;
    for (const command of next.commands) run(command);
  }

  function run(command: PolicyCommand) {
    switch (command.type) {
      case 'connect':
        connection.connect();
        return;
      case 'retryIn':
        clearTimeout(joinTimer);
        // pusher-js may be scheduling its own retry in this very call: let that call end,
        // then drop the socket and that retry together.
        queueMicrotask(() => {
          if (policy.phase !== 'waiting') return;
          connection.disconnect();
          pusher.unsubscribe(channelName);
        });
        clearTimeout(retryTimer);
        retryTimer = setTimeout(() => dispatch({ type: 'retryDue' }), command.delayMs);
        return;
      case 'joinIn':
        clearTimeout(joinTimer);
        joinTimer = setTimeout(join, command.delayMs);
        return;
      case 'close':
        clearTimeout(retryTimer);
        clearTimeout(joinTimer);
        stopWatching();
        pusher.channel(channelName)?.unbind_all();
        pusher.disconnect();
        return;
    }
  }

  function join() {
    if (policy.phase !== 'connected') return;
    // A channel whose join failed is dropped, so subscribing asks for authorisation again.
    pusher.unsubscribe(channelName);
    const channel: Channel = pusher.subscribe(channelName);
    channel.bind('pusher:subscription_succeeded', () => {
      dispatch({ type: 'joined' });
      onJoined?.();
      // A new socket has none of the extra channels: all are joined anew.
      extras.clear();
      syncExtras();
    });
    channel.bind('pusher:subscription_error', (status: { status?: unknown }) => {
      // Our own broadcasting/auth failures are reported where they happen; this is the
      // server refusing the channel after authorisation (it says with which status).
      if (typeof status?.status === 'number') {
        console.warn('Realtime channel refused', status);
        dispatch({ type: 'joinFailed', status: status.status });
      }
    });
    channel.bind_global((name: string, data: unknown) => {
      if (!name.startsWith('pusher:') && !name.startsWith('pusher_internal:')) onEvent(name, data);
    });
  }

  /** Joins the wanted extra channels and leaves the others, once the user's is joined. */
  function syncExtras() {
    if (!extraChannels || policy.phase !== 'connected') return;
    const wanted = new Set(extraChannels.wanted());
    for (const name of extras) {
      if (wanted.has(name)) continue;
      extras.delete(name);
      pusher.unsubscribe(name);
    }
    for (const name of wanted) {
      if (extras.has(name)) continue;
      extras.add(name);
      const channel = pusher.subscribe(name);
      channel.bind_global((event: string, data: unknown) => {
        if (!event.startsWith('pusher:') && !event.startsWith('pusher_internal:')) {
          extraChannels.onChannelEvent(name, event, data);
        }
      });
    }
  }
  const stopWatching = extraChannels?.onWantedChange(syncExtras) ?? (() => {});

  dispatch({ type: 'start' });

  return {
    stop: () => dispatch({ type: 'stop' }),
    get state() {
      return connection.state;
    },
    get phase() {
      return policy.phase;
    },
  };
}
