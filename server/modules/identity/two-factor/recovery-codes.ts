import { randomInt } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { twoFactorRecoveryCodes } from '../../../db/schema/index.ts';
import { hashToken } from '../secrets.ts';

export const RECOVERY_CODE_COUNT = 10;
// Letters and digits that cannot be mistaken for each other when read off paper.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** `xxxxx-xxxxx`: ~50 bits each, far beyond what the sign-in rate limit lets anyone guess. */
export const RECOVERY_CODE_PATTERN = /^[a-z2-9]{5}-?[a-z2-9]{5}$/i;

/**
 * Ten letters drawn uniformly: randomInt rejects the draws that would favour part of the
 * alphabet (31 letters do not divide 256, so `byte % 31` would make some a little likelier).
 */
export function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

// Stored hashed with the user's id, so the same code can never be matched across accounts.
const hashCode = (userId: number, code: string) =>
  hashToken(`${userId}:${code.replace('-', '').toLowerCase()}`);

/** A fresh set of codes for the user, replacing any earlier set; only their hashes are kept. */
export async function replaceRecoveryCodes(db: Database, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.transaction(async (tx) => {
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
    await tx
      .insert(twoFactorRecoveryCodes)
      .values(codes.map((code) => ({ userId, codeHash: hashCode(userId, code) })));
  });
  return codes;
}

/** Marks a code used; true only for an unused code of this user, and only once. */
export async function redeemRecoveryCode(
  db: Database,
  userId: number,
  code: string,
): Promise<boolean> {
  if (!RECOVERY_CODE_PATTERN.test(code)) return false;
  const used = await db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(twoFactorRecoveryCodes.userId, userId),
        eq(twoFactorRecoveryCodes.codeHash, hashCode(userId, code)),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  return used.length > 0;
}

export async function deleteRecoveryCodes(db: Database, userId: number): Promise<void> {
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
}
