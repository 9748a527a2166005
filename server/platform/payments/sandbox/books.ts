import { randomBytes } from 'node:crypto';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { sandboxObjects } from '../../../db/schema/sandbox.ts';
import type { BillingClock } from '../billing-clock.ts';
import type { SandboxContext } from './sandbox-context.ts';
import { missing, SandboxRequestError } from './sandbox-errors.ts';
import {
  type EventObjects,
  OBJECT_PREFIXES,
  type ObjectKind,
  type ObjectOf,
  type SandboxIdempotency,
  type SandboxObject,
} from './sandbox-objects.ts';

// The sandbox's books: one transaction's view of its objects. Every operation reads and
// locks what it needs, changes objects in memory and records events; `flush` writes it all
// at the end of the transaction, and the events are handed to the delivery queue only once
// it has committed (a webhook about a change that rolled back would be a lie).

export function newId(kind: ObjectKind): string {
  return `${OBJECT_PREFIXES[kind]}_${randomBytes(12).toString('hex')}`;
}

type NewFields<K extends ObjectKind> = Omit<
  ObjectOf<K>,
  'id' | 'object' | 'createdAt' | 'updatedAt'
>;

function customerIdOf(object: SandboxObject): string | null {
  if (object.object === 'customer') return object.id;
  return 'customer' in object ? object.customer : null;
}

export class Books {
  readonly #tx: Database;
  readonly #clock: BillingClock;
  readonly #loaded = new Map<string, SandboxObject>();
  readonly #locked = new Set<string>();
  readonly #dirty = new Set<string>();
  /** Events recorded in this transaction, to deliver once it commits. */
  readonly eventIds: string[] = [];

  constructor(tx: Database, clock: BillingClock) {
    this.#tx = tx;
    this.#clock = clock;
  }

  now(): Date {
    return this.#clock.now();
  }

  /**
   * The object, or null. With `lock` its row stays locked until the transaction ends, so
   * two requests (or two processes' renewal sweeps) acting on it take turns.
   */
  async find<K extends ObjectKind>(
    kind: K,
    id: string,
    options: { lock?: boolean } = {},
  ): Promise<ObjectOf<K> | null> {
    const cached = this.#loaded.get(id);
    if (cached && (!options.lock || this.#locked.has(id))) {
      return cached.object === kind ? (cached as ObjectOf<K>) : null;
    }
    if (cached && this.#dirty.has(id)) throw new Error(`${id} was changed before it was locked`);
    const query = this.#tx
      .select({ data: sandboxObjects.data })
      .from(sandboxObjects)
      .where(and(eq(sandboxObjects.id, id), eq(sandboxObjects.kind, kind)));
    const [row] = options.lock ? await query.for('update') : await query;
    if (!row) return null;
    if (options.lock) this.#locked.add(id);
    const object = row.data as unknown as ObjectOf<K>;
    // One object per id in memory, so every holder of it sees the same changes.
    if (cached) return Object.assign(cached, object) as ObjectOf<K>;
    this.#loaded.set(id, object);
    return object;
  }

  /** The object, or a `resource_missing` refusal. */
  async get<K extends ObjectKind>(
    kind: K,
    id: string,
    options: { lock?: boolean } = {},
  ): Promise<ObjectOf<K>> {
    const found = await this.find(kind, id, options);
    if (!found) throw missing(kind, id);
    return found;
  }

  /** A customer's objects of one kind, oldest first. */
  async list<K extends ObjectKind>(
    kind: K,
    customerId: string,
    options: { lock?: boolean } = {},
  ): Promise<ObjectOf<K>[]> {
    return this.select(
      kind,
      eq(sandboxObjects.customerId, customerId),
      options,
      sql`${sandboxObjects.createdAt}, ${sandboxObjects.id}`,
    );
  }

  /** Objects of a kind matching `where` (over `sandbox_objects`), in `orderBy`. */
  async select<K extends ObjectKind>(
    kind: K,
    where: SQL | undefined,
    options: { lock?: boolean } = {},
    orderBy: SQL = sql`${sandboxObjects.id}`,
  ): Promise<ObjectOf<K>[]> {
    const query = this.#tx
      .select({ id: sandboxObjects.id, data: sandboxObjects.data })
      .from(sandboxObjects)
      .where(and(eq(sandboxObjects.kind, kind), where))
      .orderBy(orderBy);
    const rows = options.lock ? await query.for('update') : await query;
    return rows.map(({ id, data }) => {
      const cached = this.#loaded.get(id);
      if (options.lock) this.#locked.add(id);
      if (cached) {
        if (!this.#dirty.has(id)) Object.assign(cached, data);
        return cached as ObjectOf<K>;
      }
      const object = data as unknown as ObjectOf<K>;
      this.#loaded.set(id, object);
      return object;
    });
  }

  /** A new object, written at flush. */
  create<K extends ObjectKind>(kind: K, fields: NewFields<K>, id = newId(kind)): ObjectOf<K> {
    const now = this.now().toISOString();
    const object = {
      ...fields,
      id,
      object: kind,
      createdAt: now,
      updatedAt: now,
    } as unknown as ObjectOf<K>;
    this.#loaded.set(id, object);
    this.#locked.add(id);
    this.#dirty.add(id);
    return object;
  }

  /**
   * The object of a fixed id, made now if it does not exist yet; two callers making it at
   * once end up with the same one (the second insert waits for the first and does nothing).
   */
  async ensure<K extends ObjectKind>(
    kind: K,
    id: string,
    fields: NewFields<K>,
    options: { lock?: boolean } = {},
  ): Promise<ObjectOf<K>> {
    const now = this.now().toISOString();
    const fresh = { ...fields, id, object: kind, createdAt: now, updatedAt: now } as ObjectOf<K>;
    await this.#tx.insert(sandboxObjects).values(rowOf(fresh)).onConflictDoNothing();
    return this.get(kind, id, options);
  }

  /**
   * Changes an object. Its `updatedAt` always moves forward, by a millisecond at least, so
   * each state a webhook shows of it is newer than the one before, even within one request.
   */
  change<T extends SandboxObject>(object: T, patch: Partial<Omit<T, 'id' | 'object'>>): T {
    Object.assign(object, patch);
    const next = Math.max(this.now().getTime(), Date.parse(object.updatedAt) + 1);
    object.updatedAt = new Date(next).toISOString();
    this.#dirty.add(object.id);
    return object;
  }

  /** Records an event with copies of the objects it concerns as they stand now. */
  emit(type: string, objects: EventObjects): void {
    const data = structuredClone(objects);
    const event = this.create('event', { type, data, queued: false, deliveredAt: null });
    this.eventIds.push(event.id);
  }

  /**
   * The record of an idempotency key: a fresh one to store the outcome in, or the one an
   * earlier call with the key left (its `outcome` set). A second call with the key while the
   * first is still under way waits for it: its insert waits on the first one's row.
   */
  async claimIdempotencyKey(key: string, operation: string): Promise<SandboxIdempotency> {
    const id = `idem_${key}`;
    const now = this.now().toISOString();
    const fresh: SandboxIdempotency = {
      id,
      object: 'idempotency',
      operation,
      outcome: null,
      createdAt: now,
      updatedAt: now,
    };
    const inserted = await this.#tx
      .insert(sandboxObjects)
      .values(rowOf(fresh))
      .onConflictDoNothing()
      .returning({ id: sandboxObjects.id });
    if (inserted.length > 0) {
      this.#loaded.set(id, fresh);
      this.#locked.add(id);
      return fresh;
    }
    const earlier = await this.get('idempotency', id);
    if (earlier.operation !== operation) {
      throw new SandboxRequestError(
        'idempotency_key_reused',
        `Idempotency key ${key} was used for ${earlier.operation}`,
      );
    }
    return earlier;
  }

  /** Writes every new or changed object. */
  async flush(): Promise<void> {
    const rows = [...this.#dirty].flatMap((id) => {
      const object = this.#loaded.get(id);
      return object ? [rowOf(object)] : [];
    });
    this.#dirty.clear();
    if (rows.length === 0) return;
    await this.#tx
      .insert(sandboxObjects)
      .values(rows)
      .onConflictDoUpdate({
        target: sandboxObjects.id,
        set: {
          data: sql`excluded.data`,
          customerId: sql`excluded.customer_id`,
          updatedAt: sql`excluded.updated_at`,
        },
      });
  }
}

function rowOf(object: SandboxObject) {
  return {
    id: object.id,
    kind: object.object,
    customerId: customerIdOf(object),
    data: object as unknown as Record<string, unknown>,
    createdAt: new Date(object.createdAt),
    updatedAt: new Date(object.updatedAt),
  };
}

/**
 * Runs `work` in one transaction over the books, then hands the events it made to the
 * delivery queue. On PGlite (one connection) nothing may be sent to the queue while the
 * transaction is open, which is one more reason to send after the commit.
 */
export async function inBooks<T>(
  context: SandboxContext,
  work: (books: Books) => Promise<T>,
): Promise<T> {
  const { result, eventIds } = await context.db.transaction(async (tx) => {
    const books = new Books(tx, context.clock);
    const result = await work(books);
    await books.flush();
    return { result, eventIds: books.eventIds };
  });
  if (eventIds.length > 0) await context.announce(eventIds);
  return result;
}

/** Reads one object outside any transaction. */
export async function readObject<K extends ObjectKind>(
  db: Database,
  kind: K,
  id: string,
): Promise<ObjectOf<K> | null> {
  const [row] = await db
    .select({ data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(and(eq(sandboxObjects.id, id), eq(sandboxObjects.kind, kind)));
  return (row?.data as unknown as ObjectOf<K> | undefined) ?? null;
}

/** Sets fields of several objects' documents at once, outside the books (delivery marks). */
export async function markObjects(
  db: Database,
  ids: string[],
  fields: Record<string, unknown>,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(sandboxObjects)
    .set({ data: sql`${sandboxObjects.data} || ${JSON.stringify(fields)}::jsonb` })
    .where(inArray(sandboxObjects.id, ids));
}
