import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import Pusher from 'pusher';
import type { ExternalPusherConfig } from '../../config.ts';
import { type BuiltInServerOptions, startBuiltInServer } from './built-in-server.ts';
import { externalSettings } from './pusher-app.ts';
import { PUBLISH_TIMEOUT_MS, PusherRealtime } from './pusher-realtime.ts';

export type RealtimePluginOptions = BuiltInServerOptions;

function externalClient(pusher: ExternalPusherConfig): Pusher {
  const { appId, key, secret } = pusher;
  const common = {
    appId,
    key,
    secret,
    useTLS: pusher.scheme === 'https',
    timeout: PUBLISH_TIMEOUT_MS,
  };
  return pusher.host
    ? new Pusher({ ...common, host: pusher.host, port: pusher.port?.toString() })
    : new Pusher({ ...common, cluster: pusher.cluster ?? 'mt1' });
}

// Decorates the app with `realtime`. With PUSHER_* set it only publishes to that cluster and
// tells browsers to connect there; otherwise it runs the built-in Pusher-compatible server on
// the product's own port (built-in-server.ts).
export const realtimePlugin = fp<RealtimePluginOptions>(
  async (app: FastifyInstance, options) => {
    const { pusher } = app.config;
    if (!pusher) {
      app.decorate('realtime', await startBuiltInServer(app, options));
      return;
    }
    const client = externalClient(pusher);
    app.decorate(
      'realtime',
      new PusherRealtime({
        app: { appId: pusher.appId, key: pusher.key, secret: pusher.secret },
        settings: externalSettings(pusher),
        client: () => client,
        // The cluster is always there to try; a failure is logged like any publish.
        withoutClient: () => {},
        log: app.log,
      }),
    );
  },
  { name: 'realtime' },
);
