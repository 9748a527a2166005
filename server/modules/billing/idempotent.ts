import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, isNull } from 'drizzle-orm';
import { BILLING_MESSAGES } from '#shared/contracts/billing.ts';
import { idempotencyKeys } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';

/** How long a repeat waits for the first request's answer before saying it is still busy. */
const WAIT_MS = 20_000;

/** One money-moving request: who sent it, its key (scoped by purpose), and what it asks. */
export interface IdempotentRequest {
  userId: number;
  /** `checkout:<user>:<key>`: the caller's key within what it is for and who sent it. */
  key: string;
  /** The validated input the work acts on; the same key must always come with the same. */
  input: unknown;
}

/**
 * Runs `work` once per key: a repeat of a finished request gets its answer, a repeat while
 * it works waits for it. A request that failed frees its key, so the customer may try again
 * (the gateway's own idempotency then answers what it answered, if it got that far).
 *
 * The key is bound to the input it was first sent with (its hash is kept with the key), and
 * the same key with another input is refused, as Stripe refuses it: answering the first
 * result would tell a client that asked for one plan that it bought another. Keys taken
 * before the hash was kept (a null hash) are answered as before.
 */
export async function once<T>(
  app: App,
  request: IdempotentRequest,
  work: () => Promise<T>,
): Promise<T> {
  const { userId, key } = request;
  const requestHash = hashOf(request.input);
  const [claimed] = await app.db
    .insert(idempotencyKeys)
    .values({ key, userId, requestHash, leaseUntil: leaseFromNow() })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (!claimed) {
    const answer = await answerOf<T>(app, key, requestHash);
    // The first request failed and let the key go (or died and its lease lapsed): this one
    // tries again for itself.
    return answer.done ? answer.value : once(app, request, work);
  }
  try {
    const answer = await renewingLease(app, key, work);
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
  requestHash: string,
): Promise<{ done: true; value: T } | { done: false }> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const [row] = await app.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    if (!row) return { done: false };
    if (row.requestHash !== null && row.requestHash !== requestHash) {
      throw new AppError('idempotency_error');
    }
    if (row.response !== null) return { done: true, value: row.response as T };
    if (await tookOverLapsed(app, key, row.leaseUntil)) return { done: false };
    if (Date.now() > deadline) throw new AppError('conflict');
    await sleep(100);
  }
}

/** SHA-256 of the input's canonical JSON: keys sorted at every level, so order never counts. */
function hashOf(input: unknown): string {
  return createHash('sha256').update(canonicalJson(input)).digest('hex');
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, part: unknown) =>
    part !== null && typeof part === 'object' && !Array.isArray(part)
      ? Object.fromEntries(Object.entries(part).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : part,
  );
}

/**
 * How long a claim holds without renewal. The work renews it every LEASE_RENEW_MS, so a
 * claim whose lease has lapsed belongs to a process that died (SIGKILL, a lost host) and is
 * taken over: a retry after a crash waits at most this long, not for ever. Taking over is
 * safe because the gateways' own idempotency keys are the same on the retry.
 */
const LEASE_MS = 30_000;
const LEASE_RENEW_MS = 10_000;

const leaseFromNow = () => new Date(Date.now() + LEASE_MS);

/** Runs `work` while renewing the lease of `key`'s claim. */
async function renewingLease<T>(app: App, key: string, work: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => {
    app.db
      .update(idempotencyKeys)
      .set({ leaseUntil: leaseFromNow() })
      .where(and(eq(idempotencyKeys.key, key), isNull(idempotencyKeys.response)))
      .catch((error: unknown) => app.log.warn({ err: error }, 'idempotency lease not renewed'));
  }, LEASE_RENEW_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/**
 * Frees a claim whose lease lapsed (its process died), if it is still the one seen: true
 * when the caller may claim the key for itself. A claim from before leases (null) never
 * lapses this way.
 */
async function tookOverLapsed(app: App, key: string, leaseUntil: Date | null): Promise<boolean> {
  if (!leaseUntil || leaseUntil.getTime() > Date.now()) return false;
  const freed = await app.db
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.key, key),
        isNull(idempotencyKeys.response),
        eq(idempotencyKeys.leaseUntil, leaseUntil),
      ),
    )
    .returning({ key: idempotencyKeys.key });
  if (freed.length > 0) app.log.warn({ key }, 'took over an idempotency key whose process died');
  return true;
}

/**
 * Runs `work` holding the slot `key` (a row of idempotency_keys standing in for a lock, as
 * the work calls a gateway outside any transaction and, on PGlite, needs the one connection
 * too); while another holds it, throws what `busy` makes. A slot left by a process that died
 * is taken over once its lease lapses.
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
      .values({ key, userId, leaseUntil: leaseFromNow() })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
  let [claimed] = await claim();
  if (!claimed) {
    const [held] = await app.db
      .select({ leaseUntil: idempotencyKeys.leaseUntil })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, key));
    if (!held || (await tookOverLapsed(app, key, held.leaseUntil))) [claimed] = await claim();
  }
  if (!claimed) throw slot.busy();
  try {
    return await renewingLease(app, key, work);
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
