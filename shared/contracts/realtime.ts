import { z } from 'zod';
import { SERVER_STATUSES } from '../vpn/fleet-rules.ts';
import { authUser } from './auth-user.ts';
import { endpoint } from './endpoint.ts';

// Live updates (§4 Live events, §7 broadcasting/auth, §8, §9) over the Pusher Channels
// protocol (version 7): the built-in server speaks it at `/app/{key}` on the product's own
// port, and any Pusher-compatible cluster (Pusher, Soketi) can take its place by
// configuration. The server publishes through the official `pusher` library, the browser
// listens with `pusher-js`.

/** §4 "The subscribed channel is the presence system events channel of the user." */
export const SYSTEM_EVENTS_PREFIX = 'presence-system-events.';

export function systemEventsChannel(userId: number): string {
  return `${SYSTEM_EVENTS_PREFIX}${userId}`;
}

/**
 * §4 event names carry a module prefix before a backslash that selects the handler; only
 * the users module is handled (an unknown module logs a warning, §8).
 */
export const REALTIME_EVENTS = {
  userUpdated: 'Users\\UserUpdated',
  deviceDeleted: 'Users\\DeviceDeleted',
  subscriptionUpdated: 'Users\\SubscriptionUpdated',
  familySharingUpdated: 'Users\\FamilySharingUpdated',
  referralUpdated: 'Users\\ReferralUpdated',
  vpnUpdated: 'Users\\VpnUpdated',
} as const;

/** `Users\UserUpdated`: the user as get-auth-user answers it, to merge into the store. */
export const userUpdatedEvent = z.object({ user: authUser });
export type UserUpdatedEvent = z.infer<typeof userUpdatedEvent>;

/**
 * `Users\DeviceDeleted`: a signed-in browser (a §3 Device) was logged out. Each page asks
 * the server whether its own session still stands; the one whose session is gone signs out.
 */
export const deviceDeletedEvent = z.object({ device_id: z.string() });
export type DeviceDeletedEvent = z.infer<typeof deviceDeletedEvent>;

/**
 * `Users\SubscriptionUpdated`: the user's subscription, invoices or cards changed (a payment,
 * a renewal, a staff action, a webhook): open pages fetch the current subscription again.
 */
export const subscriptionUpdatedEvent = z.object({ subscription_id: z.number().int().nullable() });
export type SubscriptionUpdatedEvent = z.infer<typeof subscriptionUpdatedEvent>;

/**
 * `Users\FamilySharingUpdated`: the user's family group changed (an invite, an answer, a
 * member removed or leaving, the owner's plan ending): open pages fetch it, and the user's
 * VPN access, again.
 */
export const familySharingUpdatedEvent = z.object({ group_id: z.number().int().nullable() });
export type FamilySharingUpdatedEvent = z.infer<typeof familySharingUpdatedEvent>;

/** `Users\ReferralUpdated`: someone joined through the user's link, or bonus days came of it. */
export const referralUpdatedEvent = z.object({ referrals_count: z.number().int() });
export type ReferralUpdatedEvent = z.infer<typeof referralUpdatedEvent>;

/**
 * `Users\VpnUpdated`: the user's WireGuard devices changed elsewhere (their access, the
 * traffic limit, a device moved off a removed server): open pages fetch them again.
 */
export const vpnUpdatedEvent = z.object({ devices: z.number().int() });
export type VpnUpdatedEvent = z.infer<typeof vpnUpdatedEvent>;

/**
 * The VPN fleet's live state, on two private channels besides the user's own: staff with the
 * servers permission join the first (each server's status and load), any signed-in person
 * the second (the location list changed: fetch it again).
 */
export const FLEET_STAFF_CHANNEL = 'private-fleet-staff';
export const FLEET_LOCATIONS_CHANNEL = 'private-fleet-locations';

export const FLEET_EVENTS = {
  serversUpdated: 'Fleet\\ServersUpdated',
  locationsUpdated: 'Fleet\\LocationsUpdated',
} as const;

export const fleetServerState = z.object({
  server_id: z.number().int(),
  status: z.enum(SERVER_STATUSES),
  load: z.number().int(),
  devices: z.number().int(),
  active_peers: z.number().int(),
  last_seen_at: z.iso.datetime({ offset: true }).nullable(),
});
export type FleetServerState = z.infer<typeof fleetServerState>;

/**
 * `Fleet\ServersUpdated`: the servers whose state changed since the last one, and those
 * removed (gone from every list).
 */
export const serversUpdatedEvent = z.object({
  servers: z.array(fleetServerState),
  removed: z.array(z.number().int()).default([]),
});
export type ServersUpdatedEvent = z.infer<typeof serversUpdatedEvent>;

export const broadcastingAuthRequest = z.object({
  socket_id: z.string().regex(/^\d+\.\d+$/, 'input_errors.field_is_invalid'),
  channel_name: z.string().min(1).max(200),
});
export type BroadcastingAuthRequest = z.infer<typeof broadcastingAuthRequest>;

/** `auth` is `key:signature`; `channel_data` the presence member, as JSON text. */
export const broadcastingAuthResponse = z.object({
  auth: z.string(),
  channel_data: z.string().optional(),
});
export type BroadcastingAuthResponse = z.infer<typeof broadcastingAuthResponse>;

/**
 * Where the browser connects, in the runtime configuration. Without a host the page's own
 * origin is used (the built-in server on the product's port).
 */
export const realtimeSettings = z.object({
  key: z.string(),
  host: z.string().nullable(),
  port: z.number().int().nullable(),
  tls: z.boolean(),
  cluster: z.string(),
});
export type RealtimeSettings = z.infer<typeof realtimeSettings>;

/**
 * §7 all: Pusher's channel authorisation. A signed-in user may join their own system-events
 * presence channel and the fleet's locations channel; staff with the servers permission the
 * fleet's staff channel too; nothing else.
 */
export const broadcastingAuthEndpoint = endpoint({
  method: 'POST',
  base: 'all',
  path: '/broadcasting/auth',
  access: 'signed-in',
  tag: 'realtime',
  summary: "Authorise the websocket to join the user's system-events channel",
  body: broadcastingAuthRequest,
  response: broadcastingAuthResponse,
});
