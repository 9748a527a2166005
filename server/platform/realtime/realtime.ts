import type { RealtimeSettings } from '#shared/contracts/realtime.ts';

/** A presence member as the channel's authorisation names it. */
export interface PresenceMember {
  user_id: string;
  user_info?: Record<string, unknown>;
}

/**
 * What the rest of the server sees of live updates (shared/contracts/realtime.ts). The same
 * whether the built-in Pusher-compatible server or an external cluster carries them.
 */
export interface Realtime {
  /**
   * Publishes an event through the official `pusher` library (HTTP events API). A failure
   * is logged, never thrown: a live update is a courtesy, the request it follows stands.
   */
  publish(channels: string | readonly string[], event: string, data: unknown): Promise<void>;
  /** Pusher's channel authorisation: `key:signature`, and the presence data as JSON text. */
  authorize(
    socketId: string,
    channel: string,
    presence?: PresenceMember,
  ): { auth: string; channel_data?: string };
  /** Where browsers connect (the runtime configuration). */
  readonly settings: RealtimeSettings;
  /**
   * Websockets open on this process (the built-in server); undefined with an external
   * cluster, which keeps its own figures.
   */
  connections(): number | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}
