import type { FastifyBaseLogger } from 'fastify';
import {
  FLEET_EVENTS,
  FLEET_LOCATIONS_CHANNEL,
  FLEET_STAFF_CHANNEL,
  type FleetServerState,
  REALTIME_EVENTS,
  systemEventsChannel,
  type VpnUpdatedEvent,
} from '#shared/contracts/realtime.ts';
import type { Database } from '../../db/client.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { serverStates } from './server-rows.ts';

/** Servers per staff event: Pusher caps an event's data at 10 KB. */
const SERVERS_PER_EVENT = 40;

export interface FleetEventsOptions {
  /** How often staff hear of changed servers. */
  staffEveryMs: number;
  /** How often customers' location lists are told to refresh, at most. */
  locationsEveryMs: number;
}

export const FLEET_EVENT_TIMINGS: FleetEventsOptions = {
  staffEveryMs: 1_000,
  locationsEveryMs: 5_000,
};

/**
 * The fleet's live state for open screens (issue "Live status"). With a thousand nodes
 * reporting every 10 s an event per report would be a hundred a second, so changes are
 * gathered and sent in batches: the changed servers' state to staff about every second, and a
 * "locations changed" signal to customers at most every few seconds (at once for a status
 * change, which decides whether a country can be picked).
 */
export class FleetEvents {
  private readonly dirty = new Set<number>();
  private locationsDirty = false;
  private staffTimer: NodeJS.Timeout | undefined;
  private locationsTimer: NodeJS.Timeout | undefined;
  private lastLocations = 0;
  private closed = false;
  private flushing: Promise<void> = Promise.resolve();
  private readonly statusListeners: (() => void)[] = [];

  constructor(
    private readonly deps: { db: Database; realtime: Realtime; log: FastifyBaseLogger },
    private readonly options: FleetEventsOptions = FLEET_EVENT_TIMINGS,
  ) {}

  /** A server's status, load or devices changed (after the commit). */
  serversChanged(ids: Iterable<number>, options: { statusChanged?: boolean } = {}): void {
    if (this.closed) return;
    for (const id of ids) this.dirty.add(id);
    if (this.dirty.size > 0 && !this.staffTimer) {
      this.staffTimer = setTimeout(() => this.flushStaff(), this.options.staffEveryMs);
      this.staffTimer.unref();
    }
    this.locationsChanged(options.statusChanged === true);
    if (options.statusChanged) for (const listener of this.statusListeners) listener();
  }

  /** Called when a server's status changed, came or went (the public servers page). */
  onStatusChanged(listener: () => void): void {
    this.statusListeners.push(listener);
  }

  /** What customers can pick changed; `now` skips the wait (a server came or went). */
  locationsChanged(now = false): void {
    if (this.closed) return;
    this.locationsDirty = true;
    if (this.locationsTimer) return;
    const wait = now
      ? 0
      : Math.max(0, this.lastLocations + this.options.locationsEveryMs - Date.now());
    this.locationsTimer = setTimeout(() => this.flushLocations(), wait);
    this.locationsTimer.unref();
  }

  /** The user's devices changed without them doing it (access, limit, a move). */
  async userDevicesChanged(userId: number, devices: number): Promise<void> {
    const event: VpnUpdatedEvent = { devices };
    await this.deps.realtime.publish(
      systemEventsChannel(userId),
      REALTIME_EVENTS.vpnUpdated,
      event,
    );
  }

  private flushStaff(): void {
    this.staffTimer = undefined;
    const ids = [...this.dirty];
    this.dirty.clear();
    this.flushing = this.flushing.then(async () => {
      try {
        const rows = ids.length > 0 ? await serverStates(this.deps.db, ids) : [];
        const states: FleetServerState[] = rows.map(({ lastSeenAt, ...state }) => ({
          ...state,
          last_seen_at: lastSeenAt?.toISOString() ?? null,
        }));
        // Not found among the live ones: removed, so lists drop it.
        const found = new Set(states.map((state) => state.server_id));
        const removed = ids.filter((id) => !found.has(id));
        for (let at = 0; at < Math.max(states.length, 1); at += SERVERS_PER_EVENT) {
          const servers = states.slice(at, at + SERVERS_PER_EVENT);
          const gone = at === 0 ? removed : [];
          if (servers.length === 0 && gone.length === 0) break;
          await this.deps.realtime.publish(FLEET_STAFF_CHANNEL, FLEET_EVENTS.serversUpdated, {
            servers,
            removed: gone,
          });
        }
      } catch (error) {
        if (!this.closed) this.deps.log.warn({ err: error }, 'fleet state not published');
      }
    });
  }

  private flushLocations(): void {
    this.locationsTimer = undefined;
    if (!this.locationsDirty) return;
    this.locationsDirty = false;
    this.lastLocations = Date.now();
    void this.deps.realtime.publish(FLEET_LOCATIONS_CHANNEL, FLEET_EVENTS.locationsUpdated, {});
  }

  /** Stops the timers; a batch under way finishes. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.staffTimer);
    clearTimeout(this.locationsTimer);
    await this.flushing;
  }
}
