/** A frame for a channel's subscribers, maybe sparing the socket it came from. */
export type FanoutHandler = (channel: string, payload: string, exceptSocketId?: string) => void;

/**
 * Carries channel frames to the other server processes. A process joins a channel while it
 * has subscribers to it, so it only hears what its own clients need.
 */
export interface Fanout {
  /** Resolves once frames for the channel published anywhere reach this process. */
  join(channel: string): Promise<void>;
  leave(channel: string): Promise<void>;
  /** To every other process that joined the channel; this one delivers its own. */
  publish(channel: string, payload: string, exceptSocketId?: string): void;
  onMessage(handler: FanoutHandler): void;
  close(): Promise<void>;
}

/** A single process: there is nobody else to tell. */
export class LocalFanout implements Fanout {
  async join(): Promise<void> {}
  async leave(): Promise<void> {}
  publish(): void {}
  onMessage(): void {}
  async close(): Promise<void> {}
}
