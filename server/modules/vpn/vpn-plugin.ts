import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { POLL_WAIT_MS } from '#shared/vpn/fleet-rules.ts';
import { vpnDevices } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { connectRedis, quitRedis } from '../../platform/redis/connect-redis.ts';
import { onBillingApplied } from '../billing/billing-listeners.ts';
import { seedDemoFleet, startDemoHeartbeat } from './demo-fleet.ts';
import { DevicesService } from './devices-service.ts';
import { FLEET_EVENT_TIMINGS, FleetEvents, type FleetEventsOptions } from './fleet-events.ts';
import { fleetSweep } from './fleet-sweep.ts';
import { installNodeAuth } from './node-auth.ts';
import { linkPeerSignal, PeerSignal } from './peer-signal.ts';
import { hasVpnAccount, syncVpnAccount } from './vpn-access.ts';
import { vpnContext } from './vpn-context.ts';

export interface VpnPluginOptions {
  /** How often the fleet's live events go out; tests make them quick. */
  fleetEvents?: FleetEventsOptions;
  /** How long a peers poll with nothing new waits; tests make it short. */
  pollWaitMs?: number;
}

/**
 * The VPN's live parts: the signal that wakes nodes' long polls (across processes through
 * Redis when REDIS_URL is set), the fleet's batched live events, the node API's token gate,
 * and a sweep at once whenever billing's test clock moves (the scheduled sweep runs every
 * few seconds otherwise, scheduled-jobs.ts).
 */
export const vpnPlugin = fp<VpnPluginOptions>(
  async (app: FastifyInstance, options) => {
    const signal = new PeerSignal();
    const events = new FleetEvents(
      { db: app.db, realtime: app.realtime, log: app.log },
      options.fleetEvents ?? FLEET_EVENT_TIMINGS,
    );
    app.decorate('vpn', { signal, events, pollWaitMs: options.pollWaitMs ?? POLL_WAIT_MS });
    installNodeAuth(app);
    // An app signed out (connected apps) takes the VPN devices it added with it.
    app.oidc.onGrantsRevoked(async ({ request, userId, grantIds }) => {
      const devices = new DevicesService(vpnContext(app as App));
      const added = await app.db
        .select({ id: vpnDevices.id })
        .from(vpnDevices)
        .where(and(eq(vpnDevices.userId, userId), inArray(vpnDevices.oauthGrantId, grantIds)));
      for (const device of added) await devices.delete({ request, userId }, device.id);
    });

    if (app.config.redisUrl) {
      const onError = (error: Error) => app.log.warn({ err: error }, 'VPN peer signal (Redis)');
      const settings = { commandTimeoutMs: 2_000, onConnectionError: onError };
      const commands = await connectRedis(app.config.redisUrl, { name: 'vpn-peers', ...settings });
      const subscriber = await connectRedis(app.config.redisUrl, {
        name: 'vpn-peers-sub',
        ...settings,
      });
      await linkPeerSignal(signal, commands, subscriber, randomUUID(), onError);
      app.addHook('onClose', async () => {
        await Promise.all([quitRedis(commands), quitRedis(subscriber)]);
      });
    }

    if (app.config.seedDemo) {
      let stopHeartbeat = () => {};
      app.addHook('onReady', async () => {
        // After the demo customer's plan, so their devices start with access.
        void app.demoBillingSeeded
          .then(() => seedDemoFleet(app as App))
          .then(() => {
            stopHeartbeat = startDemoHeartbeat(app as App);
          })
          .catch((error: unknown) => app.log.error({ err: error }, 'demo fleet not seeded'));
      });
      app.addHook('preClose', async () => stopHeartbeat());
    }

    // A billing change (a payment, a refund, a downgrade) applies to the person's peers at
    // once; the sweep would see it within seconds anyway, and catches a lost run.
    onBillingApplied(app as App, async (instance, applied) => {
      const userId = applied.userId ?? applied.subscription?.row.userId;
      // Only for someone with devices: a first device makes the account (and syncs it).
      if (userId && (await hasVpnAccount(instance.db, userId))) {
        await syncVpnAccount(vpnContext(instance), userId);
      }
    });

    app.payments.clock.onAdvance(async () => {
      await fleetSweep(app as App);
    });
    app.addHook('preClose', async () => {
      // Waiting polls are answered now rather than holding the shutdown for their wait.
      signal.releaseAll();
      await events.close();
    });
  },
  { name: 'vpn', dependencies: ['oidc', 'database', 'realtime', 'payments', 'auth', 'billing'] },
);
