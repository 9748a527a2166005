import {
  broadcastingAuthEndpoint,
  FLEET_LOCATIONS_CHANNEL,
  FLEET_STAFF_CHANNEL,
  systemEventsChannel,
} from '#shared/contracts/realtime.ts';
import { hasPermission } from '#shared/permissions.ts';
import { AppError } from '../../http/app-error.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';

/**
 * A signed-in user may join their own system-events channel and the fleet's locations
 * channel; staff with the servers permission the fleet's staff channel; any other is 403.
 */
export function broadcastingRoutes(app: App): Route[] {
  return [
    route(broadcastingAuthEndpoint, ({ auth: { user }, body }) => {
      const { socket_id: socketId, channel_name: channel } = body;
      if (channel === FLEET_LOCATIONS_CHANNEL) return app.realtime.authorize(socketId, channel);
      if (channel === FLEET_STAFF_CHANNEL && hasPermission(user.role, 'servers')) {
        return app.realtime.authorize(socketId, channel);
      }
      if (channel !== systemEventsChannel(user.id)) throw new AppError('forbidden');
      return app.realtime.authorize(socketId, channel, {
        user_id: String(user.id),
        user_info: { name: user.name ?? user.username },
      });
    }),
  ];
}
