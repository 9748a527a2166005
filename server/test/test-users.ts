import type { Role } from '#shared/roles.ts';
import type { Database } from '../db/client.ts';
import { type UserRow, users } from '../db/schema/index.ts';
import { hashPassword } from '../modules/identity/password.ts';
import type { ApiCall } from './api-client.ts';

/** The password of every user made by createUser. */
export const TEST_PASSWORD = 'Str0ng#passw0rd';

// Hashed once per file: argon2 is slow on purpose, and tests make many users.
let passwordHash: Promise<string> | undefined;
let counter = 0;

/** A verified user straight in the database, with TEST_PASSWORD and a unique address. */
export async function createUser(
  db: Database,
  overrides: Partial<typeof users.$inferInsert> & { role?: Role } = {},
): Promise<UserRow> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  counter += 1;
  const tag = `${counter}-${Date.now().toString(36)}`;
  const [user] = await db
    .insert(users)
    .values({
      email: `person${tag}@example.com`,
      username: `person${tag}`.replace(/-/g, '_'),
      passwordHash: await passwordHash,
      emailVerifiedAt: new Date(),
      ...overrides,
    })
    .returning();
  if (!user) throw new Error('user insert returned nothing');
  return user;
}

/** Signs the user in through the API; answers the session cookie. */
export async function signIn(
  call: ApiCall,
  email: string,
  password = TEST_PASSWORD,
  options: { ip?: string; userAgent?: string } = {},
): Promise<string> {
  const answer = await call('POST', '/api/public/v1/auth/sign-in', {
    body: { email, password },
    ...(options.ip ? { ip: options.ip } : {}),
    ...(options.userAgent ? { headers: { 'user-agent': options.userAgent } } : {}),
  });
  if (answer.status !== 200 || !answer.cookie) {
    throw new Error(`sign-in failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.cookie;
}
