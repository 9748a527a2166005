import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type UserRow, users } from '../../db/schema/index.ts';
import { notFoundError } from '../../http/error-handler.ts';

/** The user of that id, or 404. */
export async function findUser(db: Database, id: number): Promise<UserRow> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!user) throw notFoundError();
  return user;
}

/**
 * Writes `values` to the user in `db` (the transaction of the change, whose audit row goes
 * with it) and answers the row as it now is; 404 when the user is gone.
 */
export async function updateUser(
  db: Database,
  id: number,
  values: Partial<typeof users.$inferInsert>,
): Promise<UserRow> {
  const [user] = await db.update(users).set(values).where(eq(users.id, id)).returning();
  if (!user) throw notFoundError();
  return user;
}
