import { hkdfSync } from 'node:crypto';
import type { RealtimeSettings } from '#shared/contracts/realtime.ts';
import type { Config, ExternalPusherConfig } from '../../config.ts';
import type { AppCredentials } from './signatures.ts';

/** The built-in server's app id and key: public by nature (every page carries the key). */
export const BUILT_IN_APP_ID = 'shieldline';
export const BUILT_IN_KEY = 'shieldline';

/** pusher-js insists on a cluster even when it is told the host; any name will do. */
const PLACEHOLDER_CLUSTER = 'mt1';

/**
 * The built-in server's credentials. The secret is derived from the app key (APP_SECRET), so
 * every process sharing APP_SECRET signs and checks the same way without another setting.
 */
export function builtInApp(appKey: string): AppCredentials {
  const secret = Buffer.from(
    hkdfSync('sha256', appKey, 'shieldline', 'realtime.pusher_secret', 32),
  );
  return { appId: BUILT_IN_APP_ID, key: BUILT_IN_KEY, secret: secret.toString('hex') };
}

/** Where browsers connect: the page's own origin for the built-in server. */
export function builtInSettings(config: Pick<Config, 'appUrl'>): RealtimeSettings {
  return {
    key: BUILT_IN_KEY,
    host: null,
    port: null,
    tls: config.appUrl.startsWith('https:'),
    cluster: PLACEHOLDER_CLUSTER,
  };
}

/**
 * Where browsers connect to an external cluster. Pusher itself serves websockets on
 * `ws-{cluster}.pusher.com` and its REST API on `api-{cluster}`; a self-hosted cluster
 * (Soketi) serves both on PUSHER_HOST.
 */
export function externalSettings(pusher: ExternalPusherConfig): RealtimeSettings {
  return {
    key: pusher.key,
    host: pusher.host ?? `ws-${pusher.cluster}.pusher.com`,
    port: pusher.port ?? null,
    tls: pusher.scheme === 'https',
    cluster: pusher.cluster ?? PLACEHOLDER_CLUSTER,
  };
}
