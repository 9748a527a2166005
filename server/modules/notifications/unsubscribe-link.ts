import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { notificationLists, notificationSubscriptions } from '../../db/schema/index.ts';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter.ts';

// The unsubscribe link of a list mail (RFC 8058). The subscriber id in it is the only
// credential: random, one per subscription, gone once used. Anything that is not a live one
// answers like a used link, so the answers tell a guesser nothing; the per-address limit
// keeps guessing slow anyway.

const LINK_CHECKS_PER_IP = { limit: 30, windowMs: 15 * 60_000 };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface UnsubscribeLinkDeps {
  db: Database;
  rateLimiter: RateLimiter;
}

async function limited(deps: UnsubscribeLinkDeps, request: FastifyRequest): Promise<void> {
  await deps.rateLimiter.consume([
    { name: 'unsubscribe-link-ip', key: request.ip, ...LINK_CHECKS_PER_IP },
  ]);
}

/** The list a link is for, or null when the link is unknown or already used. */
export async function listOfLink(
  deps: UnsubscribeLinkDeps,
  request: FastifyRequest,
  subscriberUuid: string,
): Promise<string | null> {
  await limited(deps, request);
  if (!UUID.test(subscriberUuid)) return null;
  const [row] = await deps.db
    .select({ name: notificationLists.name })
    .from(notificationSubscriptions)
    .innerJoin(notificationLists, eq(notificationLists.id, notificationSubscriptions.listId))
    .where(eq(notificationSubscriptions.uuid, subscriberUuid));
  return row?.name ?? null;
}

/** Ends the subscription the link names, if it still exists; the same answer either way. */
export async function unsubscribeByLink(
  deps: UnsubscribeLinkDeps,
  request: FastifyRequest,
  subscriberUuid: string,
): Promise<void> {
  await limited(deps, request);
  if (!UUID.test(subscriberUuid)) return;
  await deps.db
    .delete(notificationSubscriptions)
    .where(eq(notificationSubscriptions.uuid, subscriberUuid));
}
