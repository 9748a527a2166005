import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { referralCodes } from '../../db/schema/index.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const CODE_LENGTH = 16;

/**
 * About 95 random bits of letters and digits: a link names nobody, no one can walk the space
 * of codes, and nothing in it needs escaping or is cut off by a mail client at a dash.
 */
function newCode(): string {
  let code = '';
  while (code.length < CODE_LENGTH) {
    for (const byte of randomBytes(CODE_LENGTH)) {
      // 248 = 4 × 62: bytes above it are dropped so every letter is equally likely.
      if (byte < 248 && code.length < CODE_LENGTH) code += ALPHABET[byte % ALPHABET.length];
    }
  }
  return code;
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
