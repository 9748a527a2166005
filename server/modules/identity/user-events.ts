import {
  type DeviceDeletedEvent,
  REALTIME_EVENTS,
  systemEventsChannel,
  type UserUpdatedEvent,
} from '#shared/contracts/realtime.ts';
import type { UserRow } from '../../db/schema/index.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { presentAuthUser } from './user-presenter.ts';

// §4 Live events about a user, on that user's system-events channel. Publishing never
// fails a request (Realtime.publish logs instead), and is not awaited by callers that
// answer the browser first. Called once the change is committed, never inside its
// transaction: an event about a change that is then rolled back would be a lie.

/** What publishing a user's live events needs. */
export interface UserEventsDeps {
  realtime: Realtime;
}

/** The user changed (profile, verification, two-factor, deactivation, default source). */
export function publishUserUpdated(deps: UserEventsDeps, user: UserRow): Promise<void> {
  const event: UserUpdatedEvent = { user: presentAuthUser(user) };
  return deps.realtime.publish(systemEventsChannel(user.id), REALTIME_EVENTS.userUpdated, event);
}

/** Sessions of the user ended: each open page asks whether its own was among them. */
export async function publishDevicesDeleted(
  deps: UserEventsDeps,
  userId: number,
  deviceIds: readonly string[],
): Promise<void> {
  const channel = systemEventsChannel(userId);
  await Promise.all(
    deviceIds.map((id) => {
      const event: DeviceDeletedEvent = { device_id: id };
      return deps.realtime.publish(channel, REALTIME_EVENTS.deviceDeleted, event);
    }),
  );
}
