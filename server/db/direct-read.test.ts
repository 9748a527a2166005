import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/test-database.ts';
import { createUser } from '../test/test-users.ts';
import { prepareDirectRead, readsDirectly } from './direct-read.ts';
import { sessions, users } from './schema/index.ts';

const database = await createTestDatabase();
const { db } = database;
afterAll(() => database.close());

const joined = { session: sessions, user: users };
const read = prepareDirectRead(db, joined, (select) =>
  select
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .limit(1),
);

describe(`prepareDirectRead (${database.driver})`, () => {
  it('answers what drizzle answers for the same join: every column, decoded alike', async () => {
    expect(readsDirectly(db)).toBe(true);
    // Nulls, a JSON object, time stamps (with microseconds from now()), numbers, an enum.
    const user = await createUser(db, {
      name: null,
      billingAddress: { line1: 'Straße 1', city: 'Zürich' },
      deleteAt: new Date('2027-01-02T03:04:05.678Z'),
      countryId: null,
    });
    const [session] = await db
      .insert(sessions)
      .values({
        userId: user.id,
        role: user.role,
        tokenHash: 'hash-of-direct-read',
        ip: '10.0.0.1',
        userAgent: null,
        expiresAt: new Date('2027-02-03T04:05:06.789Z'),
      })
      .returning();
    const expected = await db
      .select(joined)
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.tokenHash, 'hash-of-direct-read'));

    const answer = await read({ tokenHash: 'hash-of-direct-read' });
    expect(answer).toEqual(expected);
    expect(answer[0]?.session).toEqual(session);
    expect(answer[0]?.user.deleteAt).toBeInstanceOf(Date);
    expect(answer[0]?.user.billingAddress).toEqual({ line1: 'Straße 1', city: 'Zürich' });
  });

  it('answers nothing for a value no row has, and binds it as a value', async () => {
    expect(await read({ tokenHash: "x' or '1'='1" })).toEqual([]);
  });

  it('runs through drizzle inside a transaction, with the same answer', async () => {
    const outside = await read({ tokenHash: 'hash-of-direct-read' });
    const inside = await db.transaction(async (tx) => {
      expect(readsDirectly(tx as unknown as typeof db)).toBe(false);
      const inTransaction = prepareDirectRead(tx as unknown as typeof db, joined, (select) =>
        select
          .from(sessions)
          .innerJoin(users, eq(users.id, sessions.userId))
          .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
          .limit(1),
      );
      return inTransaction({ tokenHash: 'hash-of-direct-read' });
    });
    expect(inside).toEqual(outside);
  });
});
