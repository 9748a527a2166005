import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { API_BASES } from '#shared/api-bases.ts';
import { sandboxObjects } from '../../../db/schema/sandbox.ts';
import type { Job } from '../../queue/job-queue.ts';
import { markObjects, readObject } from './books.ts';
import type { SandboxContext } from './sandbox-context.ts';
import { eventPayload } from './webhook-events.ts';
import { SIGNATURE_HEADER, signSandboxWebhook } from './webhook-signature.ts';

// Webhooks leave through a durable queue, one job per event, and reach our own webhook
// route by `inject`: the whole route, signature check and all, as a real processor's
// webhook would. A non-2xx answer fails the job, so the queue tries again with back-off.

export const WEBHOOK_QUEUE = 'sandbox.webhook';
export const WEBHOOK_URL = `${API_BASES.public}/webhooks/sandbox`;

/** Attempts after the first: with back-off from 10 s that is about three hours (Stripe: 3 days). */
const RETRY_LIMIT = 10;

/** An event left unsent this long (the process died between commit and send) is sent again. */
const UNSENT_AFTER_MS = 60_000;

/** Hands committed events to the queue; each is marked once it is there. */
export async function announceEvents(context: SandboxContext, eventIds: string[]): Promise<void> {
  const sent: string[] = [];
  try {
    for (const eventId of eventIds) {
      await context.queue.send(
        WEBHOOK_QUEUE,
        { eventId },
        {
          singletonKey: eventId,
          retryLimit: RETRY_LIMIT,
          retryDelaySeconds: context.webhookRetryDelaySeconds,
          retryBackoff: true,
        },
      );
      sent.push(eventId);
    }
  } catch (error) {
    // The change has committed: the caller must not see it fail. The sweep sends these later.
    context.log.error(
      { err: error, count: eventIds.length - sent.length },
      'sandbox webhooks not queued',
    );
  } finally {
    await markObjects(context.db, sent, { queued: true }).catch((error: unknown) =>
      context.log.error({ err: error }, 'sandbox webhooks not marked as queued'),
    );
  }
}

/** The sweep's safety net for events whose send never happened. */
export async function announceUnsentEvents(context: SandboxContext): Promise<void> {
  const before = new Date(context.clock.now().getTime() - UNSENT_AFTER_MS).toISOString();
  const rows = await context.db
    .select({ id: sandboxObjects.id })
    .from(sandboxObjects)
    .where(
      sql`${sandboxObjects.kind} = 'event' and ${sandboxObjects.data}->>'queued' = 'false' and ${sandboxObjects.data}->>'createdAt' < ${before}`,
    )
    .orderBy(sandboxObjects.id)
    .limit(500);
  await announceEvents(
    context,
    rows.map((row) => row.id),
  );
}

function eventIdOf(job: Job): string {
  const data = job.data as { eventId?: unknown } | null;
  if (typeof data?.eventId !== 'string') throw new Error(`bad ${WEBHOOK_QUEUE} job ${job.id}`);
  return data.eventId;
}

/** One delivery attempt: signed now (a retry is signed afresh), posted to our route. */
export async function deliverEvent(
  app: FastifyInstance,
  context: SandboxContext,
  job: Job,
): Promise<void> {
  const eventId = eventIdOf(job);
  const event = await readObject(context.db, 'event', eventId);
  if (!event) return;
  const body = JSON.stringify(eventPayload(event));
  const response = await app.inject({
    method: 'POST',
    url: WEBHOOK_URL,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Sandbox-Webhooks/1.0',
      [SIGNATURE_HEADER]: signSandboxWebhook(context.webhookSecret, body),
    },
    payload: body,
  });
  if (response.statusCode < 200 || response.statusCode >= 300) {
    throw new Error(`webhook ${eventId} (${event.type}) answered ${response.statusCode}`);
  }
  await markObjects(context.db, [eventId], { deliveredAt: context.clock.now().toISOString() });
}
