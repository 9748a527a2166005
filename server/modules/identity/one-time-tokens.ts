import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { oneTimeTokens, type TokenType } from '../../db/schema/index.ts';
import { hashToken, newToken } from './secrets.ts';

/** The live token of `type` for the address: known, of that type and address, not expired. */
function liveToken(type: TokenType, email: string, token: string) {
  return and(
    eq(oneTimeTokens.tokenHash, hashToken(token)),
    eq(oneTimeTokens.type, type),
    eq(oneTimeTokens.email, email.trim().toLowerCase()),
    gt(oneTimeTokens.expiresAt, sql`now()`),
  );
}

/** How long each kind of e-mailed link stays valid. */
export const TOKEN_TTL_MS: Record<TokenType, number> = {
  email_verify: 48 * 3_600_000,
  password_reset: 60 * 60_000,
  password_set: 7 * 24 * 3_600_000,
  email_change: 24 * 3_600_000,
  oauth_login: 60_000,
  // The second step of a sign-in: long enough to find the phone, short enough to be stale.
  two_factor_login: 10 * 60_000,
};

/**
 * Issues a token of `type` for the user and the address it is sent to. One live token per
 * (type, user): a new link replaces the previous one, so only the latest e-mail works.
 */
export async function issueToken(
  db: Database,
  type: TokenType,
  userId: number,
  email: string,
): Promise<string> {
  const token = newToken();
  const values = {
    type,
    userId,
    email,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + TOKEN_TTL_MS[type]),
  };
  await db
    .insert(oneTimeTokens)
    .values(values)
    .onConflictDoUpdate({
      target: [oneTimeTokens.type, oneTimeTokens.userId],
      set: { ...values, createdAt: sql`now()` },
    });
  return token;
}

/**
 * Uses a token once: deleted in the same statement that finds it, so two concurrent uses
 * cannot both succeed. Answers the user and address it was issued for, or undefined when
 * it is unknown, expired, of another type or for another address.
 */
export async function consumeToken(
  db: Database,
  type: TokenType,
  email: string,
  token: string,
): Promise<{ userId: number; email: string } | undefined> {
  const [row] = await db
    .delete(oneTimeTokens)
    .where(liveToken(type, email, token))
    .returning({ userId: oneTimeTokens.userId, email: oneTimeTokens.email });
  return row;
}

/**
 * A live token of `type` for the address, without using it up: for a step that may be
 * retried (a mistyped two-factor code) before the token is consumed.
 */
export async function findToken(
  db: Database,
  type: TokenType,
  email: string,
  token: string,
): Promise<{ userId: number; email: string } | undefined> {
  const [row] = await db
    .select({ userId: oneTimeTokens.userId, email: oneTimeTokens.email })
    .from(oneTimeTokens)
    .where(liveToken(type, email, token))
    .limit(1);
  return row;
}

/** Withdraws the user's live token of `type` (a cancelled e-mail change). */
export async function revokeToken(db: Database, type: TokenType, userId: number): Promise<void> {
  await db
    .delete(oneTimeTokens)
    .where(and(eq(oneTimeTokens.type, type), eq(oneTimeTokens.userId, userId)));
}

/**
 * Why a link's token was refused, for the audit log: `expired` when it was issued for that
 * address and has run out (with its owner), else `unknown` (never issued, used already,
 * replaced by a newer link, or the address in the link was changed).
 */
export async function refusalOf(
  db: Database,
  type: TokenType,
  email: string,
  token: string,
): Promise<{ reason: 'expired' | 'unknown'; userId?: number }> {
  const [row] = await db
    .select({ userId: oneTimeTokens.userId, email: oneTimeTokens.email })
    .from(oneTimeTokens)
    .where(
      and(
        eq(oneTimeTokens.tokenHash, hashToken(token)),
        eq(oneTimeTokens.type, type),
        eq(oneTimeTokens.email, email.trim().toLowerCase()),
        lte(oneTimeTokens.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row ? { reason: 'expired', userId: row.userId } : { reason: 'unknown' };
}

/**
 * The links that are mailed to an address. When the account's address changes, those sent
 * to the old one die: whoever still reads that mailbox must not reset the password.
 */
const MAILED_TOKENS: TokenType[] = [
  'email_verify',
  'password_reset',
  'password_set',
  'email_change',
];

/** Withdraws every link mailed to `oldEmail` for the user, in the transaction of the change. */
export async function retireMailedTokens(
  db: Database,
  userId: number,
  oldEmail: string,
): Promise<void> {
  await db
    .delete(oneTimeTokens)
    .where(
      and(
        eq(oneTimeTokens.userId, userId),
        eq(oneTimeTokens.email, oldEmail),
        inArray(oneTimeTokens.type, MAILED_TOKENS),
      ),
    );
}
