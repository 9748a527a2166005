import Pusher, { type Channel } from 'pusher-js';
import { API_BASES } from '#shared/api-bases.ts';
import {
  BROADCASTING_AUTH_PATH,
  type BroadcastingAuthResponse,
  type RealtimeSettings,
  systemEventsChannel,
} from '#shared/contracts/realtime.ts';
import { api } from '../api/client.ts';

// §8/§9 timings of the live connection.
/** Idle time before the client pings (§9 gives 5000 and 20000 ms: 20 s idle, 5 s for the pong). */
export const PING_INTERVAL_MS = 20_000;
export const PONG_TIMEOUT_MS = 5_000;
/** §8 "Error or close triggers reconnect every 5 s". */
export const RECONNECT_MS = 5_000;
/** §8 "A network error retries after 1 s". */
export const NETWORK_RETRY_MS = 1_000;
/** §9 "authorisation delay 500 ms": the channel is joined this long after connecting. */
export const AUTHORIZATION_DELAY_MS = 500;

export interface RealtimeOptions {
  settings: RealtimeSettings;
  userId: number;
  /** Every event on the user's channel but Pusher's own. */
  onEvent: (name: string, data: unknown) => void;
}

export interface RealtimeConnection {
  /** Closes the socket for good: no reconnection (§4 "closes and stops reconnecting at logout"). */
  stop(): void;
  /** For tests and diagnostics: pusher-js's state name. */
  readonly state: string;
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

/**
 * Connects the signed-in user to their system-events presence channel (§4) with pusher-js,
 * joining it after a short delay and through our broadcasting/auth (§7). Reconnects as §8
 * says; an authorisation failure closes the socket for good.
 */
export function connectRealtime({
  settings,
  userId,
  onEvent,
}: RealtimeOptions): RealtimeConnection {
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let joinTimer: ReturnType<typeof setTimeout> | undefined;
  let channel: Channel | undefined;
  const channelName = systemEventsChannel(userId);

  const pusher = new Pusher(settings.key, {
    cluster: settings.cluster,
    ...endpoint(settings),
    enabledTransports: ['ws', 'wss'],
    disableStats: true,
    activityTimeout: PING_INTERVAL_MS,
    pongTimeout: PONG_TIMEOUT_MS,
    channelAuthorization: {
      endpoint: `${API_BASES.all}${BROADCASTING_AUTH_PATH}`,
      transport: 'ajax',
      customHandler: (params, callback) => {
        api
          .post<BroadcastingAuthResponse>(`${API_BASES.all}${BROADCASTING_AUTH_PATH}`, {
            socket_id: params.socketId,
            channel_name: params.channelName,
          })
          .then(
            (answer) => callback(null, answer),
            (error: unknown) =>
              callback(error instanceof Error ? error : new Error(String(error)), null),
          );
      },
    },
  });

  const reconnectIn = (delay: number) => {
    if (stopped) return;
    clearTimeout(retry);
    retry = setTimeout(() => {
      if (!stopped && pusher.connection.state !== 'connected') pusher.connect();
    }, delay);
  };

  pusher.connection.bind('state_change', ({ current }: { current: string }) => {
    if (stopped) return;
    if (current === 'connected') {
      clearTimeout(retry);
      clearTimeout(joinTimer);
      joinTimer = setTimeout(join, AUTHORIZATION_DELAY_MS);
    } else if (current === 'unavailable' || current === 'failed' || current === 'disconnected') {
      reconnectIn(RECONNECT_MS);
    }
  });
  pusher.connection.bind('error', (error: { type?: string; error?: { type?: string } }) => {
    const network = error.type === 'WebSocketError' || error.error?.type === 'WebSocketError';
    reconnectIn(network ? NETWORK_RETRY_MS : RECONNECT_MS);
  });

  function join() {
    if (stopped || channel) return;
    channel = pusher.subscribe(channelName);
    channel.bind('pusher:subscription_error', (status: unknown) => {
      // §8 "Websocket authorisation failure closes the socket."
      console.warn('Realtime authorisation failed', status);
      stop();
    });
    channel.bind_global((name: string, data: unknown) => {
      if (!name.startsWith('pusher:') && !name.startsWith('pusher_internal:')) onEvent(name, data);
    });
  }

  function stop() {
    stopped = true;
    clearTimeout(retry);
    clearTimeout(joinTimer);
    channel?.unbind_all();
    pusher.disconnect();
  }

  return {
    stop,
    get state() {
      return pusher.connection.state;
    },
  };
}
