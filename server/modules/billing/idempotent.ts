import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, lt } from 'drizzle-orm';
import { BILLING_MESSAGES } from '#shared/contracts/billing.ts';
import { idempotencyKeys } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';

/** How long a repeat waits for the first request's answer before saying it is still busy. */
const WAIT_MS = 20_000;

/**
 * Runs `work` once per key: a repeat of a finished request gets its answer, a repeat while
 * it works waits for it. A request that failed frees its key, so the customer may try again
 * (the gateway's own idempotency then answers what it answered, if it got that far).
 */
export async function once<T>(
  app: App,
  userId: number,
  key: string,
  work: () => Promise<T>,
): Promise<T> {
  const [claimed] = await app.db
    .insert(idempotencyKeys)
    .values({ key, userId })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (!claimed) {
    const answer = await answerOf<T>(app, key);
    // The first request failed and let the key go: this one tries again for itself.
    return answer.done ? answer.value : once(app, userId, key, work);
  }
  try {
    const answer = await work();
    await app.db
      .update(idempotencyKeys)
      .set({ response: answer as object })
      .where(eq(idempotencyKeys.key, key));
    return answer;
  } catch (error) {
    await app.db.delete(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    throw error;
  }
}

async function answerOf<T>(
  app: App,
  key: string,
): Promise<{ done: true; value: T } | { done: false }> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const [row] = await app.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    if (!row) return { done: false };
    if (row.response !== null) return { done: true, value: row.response as T };
    if (Date.now() > deadline) throw new AppError('conflict');
    await sleep(100);
  }
}

/** After this long a held slot is taken to belong to a process that died. */
const SLOT_STALE_MS = 120_000;

/**
 * Runs `work` holding the slot `key` (a row of idempotency_keys standing in for a lock, as
 * the work calls a gateway outside any transaction and, on PGlite, needs the one connection
 * too); while another holds it, throws what `busy` makes. A slot left by a process that died
 * is taken over once stale.
 */
export async function holdingSlot<T>(
  app: App,
  slot: { key: string; userId: number; busy: () => Error },
  work: () => Promise<T>,
): Promise<T> {
  const { key, userId } = slot;
  const claim = () =>
    app.db
      .insert(idempotencyKeys)
      .values({ key, userId })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
  let [claimed] = await claim();
  if (!claimed) {
    const stale = new Date(Date.now() - SLOT_STALE_MS);
    await app.db
      .delete(idempotencyKeys)
      .where(and(eq(idempotencyKeys.key, key), lt(idempotencyKeys.createdAt, stale)));
    [claimed] = await claim();
  }
  if (!claimed) throw slot.busy();
  try {
    return await work();
  } finally {
    await app.db.delete(idempotencyKeys).where(eq(idempotencyKeys.key, key));
  }
}

/**
 * One order at a time per customer, whatever the idempotency keys: two tabs paying at once
 * would otherwise both pass the "already subscribed" check and both charge. The second
 * is told an order is in progress.
 */
export function oneAtATime<T>(app: App, userId: number, work: () => Promise<T>): Promise<T> {
  return holdingSlot(
    app,
    {
      key: `order-slot:${userId}`,
      userId,
      busy: () => new AppError('conflict', { info: BILLING_MESSAGES.orderInProgress }),
    },
    work,
  );
}
