import { REALTIME_EVENTS, systemEventsChannel } from '#shared/contracts/realtime.ts';
import type { App } from '../../http/types.ts';

/**
 * §4 live events: everyone a change concerns (the owner, the member or invitee) is told, so
 * both sides' open pages fetch the group and their access again without a reload. A lost
 * event costs only freshness, never the change: failures are logged.
 */
export async function familyChanged(
  app: App,
  groupId: number | null,
  userIds: readonly number[],
): Promise<void> {
  for (const userId of new Set(userIds)) {
    try {
      await app.realtime.publish(
        systemEventsChannel(userId),
        REALTIME_EVENTS.familySharingUpdated,
        { group_id: groupId },
      );
    } catch (error) {
      app.log.warn({ err: error, userId }, 'family sharing event not published');
    }
  }
}
