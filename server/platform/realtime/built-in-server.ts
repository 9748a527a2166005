import { randomBytes } from 'node:crypto';
import { Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import Pusher from 'pusher';
import { loadAppKey } from '../crypto/app-key.ts';
import { ChannelHub } from './channel-hub.ts';
import { deliverEvent, triggerProblem } from './event-trigger.ts';
import { eventsApi } from './events-api.ts';
import {
  ACTIVITY_TIMEOUT_S,
  frame,
  PONG_TIMEOUT_MS,
  SOCKET_LIMITS,
  type SocketLimits,
} from './protocol.ts';
import { builtInApp, builtInSettings } from './pusher-app.ts';
import { PUBLISH_TIMEOUT_MS, PusherRealtime } from './pusher-realtime.ts';
import type { Realtime } from './realtime.ts';
import { openScaleOut } from './scale-out.ts';
import { refuseUpgrade, SocketServer } from './socket-server.ts';

export interface BuiltInServerOptions {
  /** Timings, shortened by tests; the protocol's defaults otherwise. */
  activityTimeoutS?: number;
  pongTimeoutMs?: number;
  presenceHeartbeatMs?: number;
  presenceNodeTtlMs?: number;
  /** What one client may cost; SOCKET_LIMITS otherwise (tests and the benchmark change them). */
  limits?: Partial<SocketLimits>;
  /** How long a shutdown waits for clients to answer the close frame (tests lengthen it). */
  closeGraceMs?: number;
}

/** Where this process can reach its own listening socket. */
function loopbackHost({ address, family }: AddressInfo): string {
  if (address === '0.0.0.0') return '127.0.0.1';
  if (address === '::') return '[::1]';
  return family === 'IPv6' ? `[${address}]` : address;
}

/**
 * The built-in Pusher-compatible server on the product's own HTTP server: websockets at
 * /app/{key}, the HTTP events API at /apps/{id}/…, channels and presence shared through Redis
 * when REDIS_URL is set, and `realtime` publishing to it through the `pusher` library, the
 * same path as with an external cluster. Closes with the app.
 */
export async function startBuiltInServer(
  app: FastifyInstance,
  options: BuiltInServerOptions,
): Promise<Realtime> {
  const { config } = app;
  const credentials = builtInApp(await loadAppKey(config));
  // Announcements of the presence store go through the hub, which needs the fan-out opened
  // together with that store.
  let hub: ChannelHub | undefined;
  const scaleOut = await openScaleOut({
    redisUrl: config.redisUrl,
    nodeId: randomBytes(8).toString('hex'),
    log: app.log,
    presenceHeartbeatMs: options.presenceHeartbeatMs,
    presenceNodeTtlMs: options.presenceNodeTtlMs,
    onMembersGone: (channel, userIds) => {
      for (const userId of userIds) {
        hub?.broadcast(
          channel,
          frame('pusher_internal:member_removed', { user_id: userId }, channel),
        );
      }
    },
    onMembersBack: (channel, members) => {
      for (const member of members) {
        hub?.broadcast(channel, frame('pusher_internal:member_added', member, channel));
      }
    },
  });
  const channels = new ChannelHub(scaleOut.fanout, (error, channel) =>
    app.log.warn({ err: error, channel }, 'realtime channel not left on Redis'),
  );
  hub = channels;
  const sockets = new SocketServer({
    app: credentials,
    hub: channels,
    presence: scaleOut.presence,
    log: app.log,
    activityTimeoutS: options.activityTimeoutS ?? ACTIVITY_TIMEOUT_S,
    pongTimeoutMs: options.pongTimeoutMs ?? PONG_TIMEOUT_MS,
    limits: { ...SOCKET_LIMITS, ...options.limits },
    closeGraceMs: options.closeGraceMs,
    trustProxy: config.trustProxy,
  });
  app.server.on('upgrade', (request, socket, head) => {
    if (sockets.handleUpgrade(request, socket, head)) return;
    // Nobody else takes upgrades: answer rather than leave the socket hanging.
    if (app.server.listenerCount('upgrade') === 1) refuseUpgrade(socket, 404, 'Not Found');
  });

  await app.register(eventsApi, {
    app: credentials,
    deliver: (event) => deliverEvent(channels, event),
    members: (channel) => scaleOut.presence.members(channel),
  });

  // Keep-alive: publishing to ourselves should not cost a TCP handshake per event.
  const agent = new Agent({ keepAlive: true });
  let client: Pusher | undefined;
  // From the start of a shutdown, events skip the trip over loopback: the HTTP server is
  // about to stop taking connections, and the events of requests still finishing must still
  // reach the channels (and, through Redis, the other processes' clients).
  let closing = false;
  const ownClient = () => {
    if (closing) return undefined;
    const address = app.server.listening ? app.server.address() : null;
    if (address === null || typeof address === 'string') return undefined;
    client ??= new Pusher({
      ...credentials,
      host: loopbackHost(address),
      port: String(address.port),
      useTLS: false,
      agent,
      timeout: PUBLISH_TIMEOUT_MS,
    });
    return client;
  };
  const realtime = new PusherRealtime({
    app: credentials,
    settings: builtInSettings(config),
    client: ownClient,
    // Not listening (app.inject in tests, a process that only runs jobs, or closing): nobody
    // can be connected here, but with Redis others may be, so the event goes straight to the
    // channels instead of through HTTP, after the same checks.
    withoutClient: (channelNames, name, data) => {
      const event = { channels: channelNames, name, data };
      const problem = triggerProblem(event);
      if (problem) throw problem;
      deliverEvent(channels, event);
      app.log.debug({ channels: channelNames, event: name }, 'realtime event delivered in-process');
    },
    log: app.log,
    connections: () => sockets.connectionCount,
  });

  // Sockets close before the HTTP server does (it would wait for them), and their
  // departures are announced before Redis goes.
  app.addHook('preClose', async () => {
    closing = true;
    await sockets.close();
  });
  app.addHook('onClose', async () => {
    agent.destroy();
    await scaleOut.close();
  });
  return realtime;
}
