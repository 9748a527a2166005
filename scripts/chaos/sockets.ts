import Pusher from 'pusher-js';
import { accountEndpoints } from '#shared/contracts/account.ts';
import { appConfigEndpoint } from '#shared/contracts/app-config.ts';
import { authEndpoints } from '#shared/contracts/auth.ts';
import {
  broadcastingAuthEndpoint,
  REALTIME_EVENTS,
  systemEventsChannel,
} from '#shared/contracts/realtime.ts';
import type { Traffic } from './traffic.ts';

// A customer's open tabs: pusher-js clients on the customer's system-events channel, each
// connected to a given address (one app process, or the balancer). A change to the profile
// is an event every tab must hear; its name is the marker the checks look for.

export interface Tab {
  label: string;
  /** Markers heard, with when (performance.now()). */
  heard: Map<string, number>;
  /** How many times the socket became connected (more than once: it reconnected). */
  connects: number;
  /** Joined the channel now: events published from now on must reach it. */
  joined: boolean;
  close(): void;
}

export interface Customer {
  email: string;
  cookie: string;
  userId: number;
  username: string;
  tabs: Tab[];
}

async function realtimeKey(traffic: Traffic): Promise<string> {
  const answer = await traffic.call('setup', 'GET', appConfigEndpoint.url);
  const key = (answer.body as { realtime?: { key?: string } } | undefined)?.realtime?.key;
  if (!key) throw new Error(`app-config answered ${answer.status} without a realtime key`);
  return key;
}

function openTab(key: string, baseUrl: string, customer: Customer, label: string): Tab {
  const { hostname, port } = new URL(baseUrl);
  const tab: Tab = { label, heard: new Map(), connects: 0, joined: false, close: () => {} };
  const client = new Pusher(key, {
    cluster: 'local',
    wsHost: hostname,
    wsPort: Number(port),
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: {
      endpoint: broadcastingAuthEndpoint.url,
      transport: 'ajax',
      customHandler: ({ socketId, channelName }, callback) => {
        fetch(new URL(broadcastingAuthEndpoint.url, baseUrl), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-requested-with': 'fetch',
            cookie: customer.cookie,
          },
          body: JSON.stringify({ socket_id: socketId, channel_name: channelName }),
        })
          .then(async (response) => {
            if (!response.ok) throw new Error(`channel auth answered ${response.status}`);
            callback(null, (await response.json()) as { auth: string; channel_data?: string });
          })
          .catch((error: Error) => callback(error, null));
      },
    },
  });
  client.connection.bind('state_change', ({ current }: { current: string }) => {
    if (current === 'connected') tab.connects += 1;
    else tab.joined = false;
  });
  const channel = client.subscribe(systemEventsChannel(customer.userId));
  channel.bind('pusher:subscription_succeeded', () => {
    tab.joined = true;
  });
  channel.bind(REALTIME_EVENTS.userUpdated, (event: { user?: { name?: string | null } }) => {
    const name = event.user?.name;
    if (name && !tab.heard.has(name)) tab.heard.set(name, performance.now());
  });
  tab.close = () => client.disconnect();
  return tab;
}

/** Opens a tab per address for a customer who has just signed up (the cookie). */
export async function openTabs(
  traffic: Traffic,
  customer: Omit<Customer, 'tabs' | 'userId' | 'username'>,
  addresses: readonly { label: string; url: string }[],
): Promise<Customer> {
  const me = await traffic.call('setup', 'POST', authEndpoints.getAuthUser.url, {
    cookie: customer.cookie,
  });
  const user = (me.body as { user?: { id?: number; username?: string } } | undefined)?.user;
  if (!user?.id || !user.username) throw new Error(`get-auth-user answered ${me.status}`);
  const key = await realtimeKey(traffic);
  const full: Customer = { ...customer, userId: user.id, username: user.username, tabs: [] };
  full.tabs = addresses.map(({ label, url }) => openTab(key, url, full, label));
  return full;
}

/** Changes the customer's name to `marker` through `traffic`: every tab should hear it. */
export async function sendMarker(
  traffic: Traffic,
  customer: Customer,
  marker: string,
): Promise<number> {
  const answer = await traffic.call('marker', 'POST', accountEndpoints.profileUpdate.account.url, {
    cookie: customer.cookie,
    body: { name: marker, username: customer.username, email: customer.email },
  });
  return answer.status;
}
