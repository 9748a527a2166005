import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/app-error.ts';
import type { TriggerEvent } from './event-trigger.ts';
import { triggerProblem } from './event-trigger.ts';
import { channelKind, LIMITS, type Member } from './protocol.ts';
import { type AppCredentials, apiRequestProblem } from './signatures.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Still answered during a graceful shutdown, when other requests get 503: the events
     * of requests that are finishing must not be lost on their way to the channels.
     */
    servesWhileClosing?: boolean;
  }
}

export interface EventsApiOptions {
  app: AppCredentials;
  deliver: (event: TriggerEvent) => void;
  members: (channel: string) => Promise<Member[]>;
}

/** Room for a full batch of full events with their channel lists, and no more. */
const BODY_LIMIT = 256 * 1024;

const eventFields = {
  name: z.string(),
  data: z.string(),
  socket_id: z.string().optional(),
  info: z.string().optional(),
};
const eventBody = z.object({
  ...eventFields,
  channels: z.array(z.string()).optional(),
  channel: z.string().optional(),
});
const batchBody = z.object({
  batch: z.array(z.object({ ...eventFields, channel: z.string() })).max(LIMITS.eventsPerBatch),
});

type AppParams = { appId: string };

/**
 * Pusher's HTTP API, the part the `pusher` library uses to publish (and presence users, for
 * tests and operators). Each request is signed with the app secret (signatures.ts), which is
 * why it sits outside /api/ and its CSRF check. Refusals use the product's error envelope:
 * the library only reads the status and reports the body as text.
 */
export const eventsApi: FastifyPluginAsync<EventsApiOptions> = async (app, options) => {
  // The signature covers the body's MD5, so the body is read as the text that was signed.
  // This parser stays inside this plugin.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_r, body, done) =>
    done(null, body),
  );

  // Every publish is one of these requests: logged when they fail, not each time.
  const routeOptions = {
    schema: { hide: true },
    logLevel: 'warn',
    // Pusher's HTTP API: each request is signed with the app secret (authenticate below).
    config: { servesWhileClosing: true, access: 'own-signature' },
  } as const;

  function authenticate(request: FastifyRequest<{ Params: AppParams }>): void {
    if (request.params.appId !== options.app.appId) {
      throw new AppError('not_found', { info: 'Unknown app id' });
    }
    const problem = apiRequestProblem(options.app, {
      method: request.method,
      path: request.url.split('?')[0] ?? '',
      query: request.query as Record<string, unknown>,
      body: typeof request.body === 'string' ? request.body : undefined,
    });
    if (problem) throw new AppError('unauthenticated', { info: problem });
  }

  function parseBody<T>(request: FastifyRequest, schema: z.ZodType<T>): T {
    let json: unknown;
    try {
      json = JSON.parse(String(request.body ?? ''));
    } catch {
      throw new AppError('bad_request', { info: 'The body must be JSON' });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new AppError('bad_request', { info: 'Invalid event' });
    return parsed.data;
  }

  function checked(events: TriggerEvent[]): TriggerEvent[] {
    for (const event of events) {
      const problem = triggerProblem(event);
      if (problem) throw problem;
    }
    return events;
  }

  app.post<{ Params: AppParams }>('/apps/:appId/events', routeOptions, async (request) => {
    authenticate(request);
    const body = parseBody(request, eventBody);
    const channels = body.channels ?? (body.channel === undefined ? [] : [body.channel]);
    const [event] = checked([
      { channels, name: body.name, data: body.data, socketId: body.socket_id },
    ]);
    if (event) options.deliver(event);
    return {};
  });

  app.post<{ Params: AppParams }>('/apps/:appId/batch_events', routeOptions, async (request) => {
    authenticate(request);
    const { batch } = parseBody(request, batchBody);
    // All or nothing: one bad event refuses the batch before any is delivered.
    const events = checked(
      batch.map((event) => ({
        channels: [event.channel],
        name: event.name,
        data: event.data,
        socketId: event.socket_id,
      })),
    );
    for (const event of events) options.deliver(event);
    return { batch: events.map(() => ({})) };
  });

  app.get<{ Params: AppParams & { channel: string } }>(
    '/apps/:appId/channels/:channel/users',
    routeOptions,
    async (request) => {
      authenticate(request);
      if (channelKind(request.params.channel) !== 'presence') {
        throw new AppError('bad_request', { info: 'Users are listed for presence channels only' });
      }
      const members = await options.members(request.params.channel);
      return { users: members.map((member) => ({ id: member.user_id })) };
    },
  );
};
