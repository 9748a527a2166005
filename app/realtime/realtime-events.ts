import type { AuthUser } from '#shared/contracts/auth-user.ts';
import {
  deviceDeletedEvent,
  FLEET_EVENTS,
  type FleetServerState,
  familySharingUpdatedEvent,
  REALTIME_EVENTS,
  referralUpdatedEvent,
  serversUpdatedEvent,
  subscriptionUpdatedEvent,
  userUpdatedEvent,
  vpnUpdatedEvent,
} from '#shared/contracts/realtime.ts';

/** What the page does about the live events of the users module (§4). */
export interface UsersHandlers {
  /** New data for the signed-in user, merged into the store. */
  userUpdated(user: AuthUser): void;
  /** One of the user's sessions ended; maybe this page's. */
  deviceDeleted(deviceId: string): void;
  /** The user's subscription, invoices or cards changed. */
  subscriptionUpdated(): void;
  /** The user's family group changed. */
  familySharingUpdated(): void;
  /** Someone joined through the user's referral link, or its bonus days came. */
  referralUpdated(): void;
  /** The user's WireGuard devices changed (access, the traffic limit, a server removed). */
  vpnUpdated(): void;
}

/**
 * §4 "Event names have a prefix before a backslash that selects a handler; only the users
 * prefix is handled" (§8: an unknown module logs a warning). Malformed data is ignored.
 */
export function dispatchRealtimeEvent(name: string, data: unknown, users: UsersHandlers): void {
  const slash = name.indexOf('\\');
  const module = slash < 0 ? name : name.slice(0, slash);
  if (module !== 'Users') {
    console.warn('Unknown websocket module', module);
    return;
  }
  if (name === REALTIME_EVENTS.userUpdated) {
    const parsed = userUpdatedEvent.safeParse(data);
    if (parsed.success) users.userUpdated(parsed.data.user);
  } else if (name === REALTIME_EVENTS.deviceDeleted) {
    const parsed = deviceDeletedEvent.safeParse(data);
    if (parsed.success) users.deviceDeleted(parsed.data.device_id);
  } else if (name === REALTIME_EVENTS.subscriptionUpdated) {
    if (subscriptionUpdatedEvent.safeParse(data).success) users.subscriptionUpdated();
  } else if (name === REALTIME_EVENTS.familySharingUpdated) {
    if (familySharingUpdatedEvent.safeParse(data).success) users.familySharingUpdated();
  } else if (name === REALTIME_EVENTS.referralUpdated) {
    if (referralUpdatedEvent.safeParse(data).success) users.referralUpdated();
  } else if (name === REALTIME_EVENTS.vpnUpdated) {
    if (vpnUpdatedEvent.safeParse(data).success) users.vpnUpdated();
  }
}

/** What the page does about the fleet's events (the channels a screen asked for). */
export interface FleetHandlers {
  serversUpdated(servers: FleetServerState[], removed: number[]): void;
  locationsUpdated(): void;
}

/** The fleet's channels carry only these; anything else, or malformed data, is ignored. */
export function dispatchFleetEvent(name: string, data: unknown, fleet: FleetHandlers): void {
  if (name === FLEET_EVENTS.serversUpdated) {
    const parsed = serversUpdatedEvent.safeParse(data);
    if (parsed.success) fleet.serversUpdated(parsed.data.servers, parsed.data.removed);
  } else if (name === FLEET_EVENTS.locationsUpdated) {
    fleet.locationsUpdated();
  }
}
