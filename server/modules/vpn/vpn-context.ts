import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { App } from '../../http/types.ts';
import type { FleetEvents } from './fleet-events.ts';
import type { PeerSignal } from './peer-signal.ts';

/** What the VPN's services work with: the database, billing's clock, and the live parts. */
export interface VpnContext {
  db: Database;
  /** Billing's time (the test clock moves it), so access ends when the ledger says. */
  now: () => Date;
  signal: PeerSignal;
  events: FleetEvents;
  log: FastifyBaseLogger;
  config: { appUrl: string; vpnReportIntervalMs: number };
  pollWaitMs: number;
}

/** The live parts the VPN plugin keeps for the process. */
export interface VpnRuntime {
  signal: PeerSignal;
  events: FleetEvents;
  /** How long a peers poll with nothing new waits (POLL_WAIT_MS). */
  pollWaitMs: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    vpn: VpnRuntime;
  }
}

export function vpnContext(app: App): VpnContext {
  return {
    db: app.db,
    now: () => app.payments.clock.now(),
    signal: app.vpn.signal,
    events: app.vpn.events,
    log: app.log,
    config: app.config,
    pollWaitMs: app.vpn.pollWaitMs,
  };
}
