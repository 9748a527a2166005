import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';

const MAX_BASE = 20;

/** The base of a username from an e-mail's local part: lower-case letters, digits and _. */
export function usernameBase(email: string): string {
  const local = email.split('@')[0] ?? '';
  const base = local
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_BASE);
  return base.length >= 3 ? base : `user${base}`;
}

/**
 * A username nobody has (sign-up asks only for an e-mail; §5 profile lets the user change
 * it later). Tries the base, then the base with a random four-digit suffix.
 */
export async function uniqueUsername(db: Database, email: string): Promise<string> {
  const base = usernameBase(email);
  for (let attempt = 0; attempt < 10; attempt++) {
    const candidate = attempt === 0 ? base : `${base}${randomInt(1000, 10000)}`;
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.username}) = ${candidate}`)
      .limit(1);
    if (!taken) return candidate;
  }
  return `${base}${Date.now().toString(36)}`;
}
