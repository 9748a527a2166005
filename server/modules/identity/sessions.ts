import { and, eq, gt, ne, type SQL, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { prepareDirectRead } from '../../db/direct-read.ts';
import { type SessionRow, sessions, type UserRow, users } from '../../db/schema/index.ts';
import { hashToken, newToken } from './secrets.ts';

// Server-side sessions (DESIGN): the browser holds a random token in an httpOnly cookie, the
// database its hash. Each session is a device of §3. A session ends when idle for
// `sessionIdleMs`, `sessionMaxMs` after sign-in whatever happens, or when revoked.

/** `lastSeenAt` is written at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60_000;

export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
}

export interface ActiveSession {
  session: SessionRow;
  user: UserRow;
  /** Set when an app of ours calls with an access token instead of a browser's cookie. */
  app?: { clientId: string; grantId: string };
}

export async function createSession(
  db: Database,
  config: Pick<Config, 'sessionMaxMs'>,
  user: Pick<UserRow, 'id' | 'role'>,
  client: ClientInfo,
): Promise<{ token: string; session: SessionRow }> {
  const token = newToken();
  const [session] = await db
    .insert(sessions)
    .values({
      userId: user.id,
      role: user.role,
      tokenHash: hashToken(token),
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
      expiresAt: new Date(Date.now() + config.sessionMaxMs),
    })
    .returning();
  if (!session) throw new Error('session insert returned nothing');
  return { token, session };
}

/**
 * findSession's join, built once per database: building it with the query builder on every
 * request was most of get-auth-user's CPU (drizzle turning the builder into SQL; see
 * docs/operations/benchmarks.md), and drizzle's prepared query still cost a few µs more than
 * the driver, so it runs directly (direct-read.ts), as an unnamed statement: no state
 * left on the server's connections (safe behind PgBouncer's transaction pooling and across
 * migrations).
 */
function prepareFindSession(db: Database) {
  return prepareDirectRead(db, { session: sessions, user: users }, (select) =>
    select
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
      .limit(1),
  );
}

const findSessionQueries = new WeakMap<Database, ReturnType<typeof prepareFindSession>>();

function findSessionQuery(db: Database): ReturnType<typeof prepareFindSession> {
  let query = findSessionQueries.get(db);
  if (!query) {
    query = prepareFindSession(db);
    findSessionQueries.set(db, query);
  }
  return query;
}

/**
 * The live session a token names, with its user. An expired one, or one signed in under a
 * role the user no longer has (a privilege change), is deleted on the way.
 */
export async function findSession(
  db: Database,
  config: Pick<Config, 'sessionIdleMs'>,
  token: string,
): Promise<ActiveSession | undefined> {
  const [row] = await findSessionQuery(db)({ tokenHash: hashToken(token) });
  if (!row) return undefined;
  const now = Date.now();
  const idle = now - row.session.lastSeenAt.getTime() > config.sessionIdleMs;
  const roleChanged = row.session.role !== row.user.role;
  if (idle || roleChanged || row.session.expiresAt.getTime() <= now) {
    await db.delete(sessions).where(eq(sessions.id, row.session.id));
    return undefined;
  }
  if (now - row.session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: sql`now()` })
      .where(eq(sessions.id, row.session.id));
  }
  return row;
}

/**
 * Gives the session a new token, the old one dying at once: done when the account's
 * standing changes (password set or changed, e-mail verified, two-factor switched on), so a
 * token copied before no longer works. A role change ends the session instead (findSession).
 */
export async function rotateSession(db: Database, sessionId: string): Promise<string> {
  const token = newToken();
  await db
    .update(sessions)
    .set({ tokenHash: hashToken(token) })
    .where(eq(sessions.id, sessionId));
  return token;
}

export async function deleteSession(db: Database, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/**
 * Ends every session of the user but the one given (a password reset ends them all).
 * Answers the ids of the sessions ended, for the device-deleted events.
 */
export async function deleteOtherSessions(
  db: Database,
  userId: number,
  keepSessionId: string | undefined,
): Promise<string[]> {
  const removed = await db
    .delete(sessions)
    .where(
      keepSessionId
        ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId))
        : eq(sessions.userId, userId),
    )
    .returning({ id: sessions.id });
  return removed.map((row) => row.id);
}

/**
 * The user's sessions that still stand: not past their absolute end, used within the idle
 * time. What a devices list shows and counts (own account and staff alike).
 */
export function liveSessionsOf(userId: number, config: Pick<Config, 'sessionIdleMs'>): SQL {
  const idleSince = new Date(Date.now() - config.sessionIdleMs);
  return and(
    eq(sessions.userId, userId),
    gt(sessions.expiresAt, sql`now()`),
    gt(sessions.lastSeenAt, idleSince),
  ) as SQL;
}
