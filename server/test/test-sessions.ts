import type { UserRow } from '../db/schema/index.ts';
import type { App } from '../http/types.ts';
import { sessionCookieName } from '../modules/identity/auth-plugin.ts';
import { createSession } from '../modules/identity/sessions.ts';
import { createUser } from './test-users.ts';

export interface TestSession {
  user: UserRow;
  /** The `cookie` header value that carries the session. */
  cookie: string;
  /** The session's id: the §3 device id. */
  sessionId: string;
}

/**
 * A session for `user` straight in the database, as a sign-in would make it. No argon2 and no
 * sign-in limits, so a test may make dozens; the sign-in itself is tested elsewhere.
 */
export async function sessionFor(app: App, user: UserRow, ip = '192.0.2.10'): Promise<TestSession> {
  const { token, session } = await createSession(app.db, app.config, user, {
    ip,
    userAgent: 'vitest-agent',
  });
  return { user, cookie: `${sessionCookieName(app.config)}=${token}`, sessionId: session.id };
}

/** A new user (createUser's overrides) signed in once. */
export async function signedInUser(
  app: App,
  overrides: Parameters<typeof createUser>[1] = {},
): Promise<TestSession> {
  return sessionFor(app, await createUser(app.db, overrides));
}
