import type { FastifyBaseLogger } from 'fastify';
import Pusher from 'pusher';
import type { RealtimeSettings } from '#shared/contracts/realtime.ts';
import { LIMITS } from './protocol.ts';
import type { PresenceMember, Realtime } from './realtime.ts';
import type { AppCredentials } from './signatures.ts';

/** A publish waits this long for the HTTP API before it is logged as failed. */
export const PUBLISH_TIMEOUT_MS = 5_000;

export interface PusherRealtimeOptions {
  app: AppCredentials;
  settings: RealtimeSettings;
  /** The library pointed at the cluster, or undefined while it cannot be reached. */
  client: () => Pusher | undefined;
  /** What to do with an event while there is no client (the built-in server not listening). */
  withoutClient: (channels: string[], event: string, data: string) => void;
  log: FastifyBaseLogger;
  /** The sockets open here: the built-in server's count; unset with an external cluster. */
  connections?: () => number;
}

function describe(error: unknown): Record<string, unknown> {
  if (error instanceof Pusher.RequestError) {
    return { message: error.message, status: error.status, body: error.body, url: error.url };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

/**
 * `app.realtime` over the official `pusher` library: the same calls whether the built-in
 * server or an external cluster is at the other end.
 */
export class PusherRealtime implements Realtime {
  readonly settings: RealtimeSettings;
  /** Signs channel authorisations; never sends a request, so its host does not matter. */
  private readonly signer: Pusher;

  constructor(private readonly options: PusherRealtimeOptions) {
    this.settings = options.settings;
    const { appId, key, secret } = options.app;
    this.signer = new Pusher({ appId, key, secret, host: 'localhost' });
  }

  async publish(channels: string | readonly string[], event: string, data: unknown): Promise<void> {
    const list = typeof channels === 'string' ? [channels] : [...channels];
    if (list.length === 0) return;
    try {
      const client = this.options.client();
      if (!client) {
        this.options.withoutClient(
          list,
          event,
          typeof data === 'string' ? data : JSON.stringify(data),
        );
        return;
      }
      // The HTTP API takes at most 100 channels per event.
      for (let start = 0; start < list.length; start += LIMITS.channelsPerEvent) {
        await client.trigger(list.slice(start, start + LIMITS.channelsPerEvent), event, data);
      }
    } catch (error) {
      this.options.log.error(
        { err: describe(error), channels: list, event },
        'realtime publish failed',
      );
    }
  }

  connections(): number | undefined {
    return this.options.connections?.();
  }

  authorize(
    socketId: string,
    channel: string,
    presence?: PresenceMember,
  ): { auth: string; channel_data?: string } {
    const { auth, channel_data } = this.signer.authorizeChannel(socketId, channel, presence);
    return channel_data === undefined ? { auth } : { auth, channel_data };
  }
}
