import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BROADCASTING_AUTH_PATH,
  broadcastingAuthRequest,
  broadcastingAuthResponse,
  systemEventsChannel,
} from '#shared/contracts/realtime.ts';
import { AppError } from '../../http/app-error.ts';
import { requireAuth } from '../auth/auth-plugin.ts';

/**
 * §7 all: POST /broadcasting/auth. A signed-in user may join their own system-events
 * presence channel and nothing else: any other channel, another user's included, is 403.
 */
export const broadcastingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    BROADCASTING_AUTH_PATH,
    {
      schema: {
        tags: ['realtime'],
        summary: "Authorise the websocket to join the user's system-events channel",
        body: broadcastingAuthRequest,
        response: { 200: broadcastingAuthResponse },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const { socket_id: socketId, channel_name: channel } = request.body;
      if (channel !== systemEventsChannel(user.id)) throw new AppError('forbidden');
      return app.realtime.authorize(socketId, channel, {
        user_id: String(user.id),
        user_info: { name: user.name ?? user.username },
      });
    },
  );
};
