import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { referralCodes } from '../../db/schema/index.ts';

/** 96 random bits: a link names nobody and no one can walk the space of codes. */
function newCode(): string {
  return randomBytes(12).toString('base64url');
}

/**
 * The user's referral code, made on first use. Two first views at once both insert; the
 * primary key keeps one and both read it back.
 */
export async function codeOf(db: Database, userId: number): Promise<string> {
  const [found] = await db
    .select({ code: referralCodes.code })
    .from(referralCodes)
    .where(eq(referralCodes.userId, userId));
  if (found) return found.code;
  await db.insert(referralCodes).values({ userId, code: newCode() }).onConflictDoNothing();
  const [made] = await db
    .select({ code: referralCodes.code })
    .from(referralCodes)
    .where(eq(referralCodes.userId, userId));
  if (!made) throw new Error('the referral code could not be made');
  return made.code;
}

/** Whose link a code is; null for a code nobody has. */
export async function referrerOf(db: Database, code: string): Promise<number | null> {
  const [found] = await db
    .select({ userId: referralCodes.userId })
    .from(referralCodes)
    .where(eq(referralCodes.code, code));
  return found?.userId ?? null;
}
