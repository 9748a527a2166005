import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { passkeyChallenges } from '../../db/schema/index.ts';
import { hashToken, newToken } from '../identity/secrets.ts';

// A WebAuthn ceremony's challenge (the random value the authenticator signs), kept by the
// server between the options and the verify call. The browser holds only a random id in an
// httpOnly cookie (challenge-cookie.ts), the table only that id's hash: the same one-time
// mechanism as our other tokens, with the challenge itself as the payload.

export type CeremonyPurpose = 'register' | 'sign-in';

/** Long enough to find the phone or the security key, short enough to be stale. */
export const CEREMONY_TTL_MS = 5 * 60_000;

export interface CeremonyChallenge {
  challenge: string;
  /** The signed-in person a registration is for; null for a sign-in. */
  userId: number | null;
}

/** Stores a new ceremony's challenge; answers the id for the browser's cookie. */
export async function issueChallenge(
  db: Database,
  purpose: CeremonyPurpose,
  userId: number | null,
  challenge: string,
): Promise<string> {
  const id = newToken();
  // Abandoned ceremonies' rows go with the next one; the index on expires_at keeps it cheap.
  await db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, sql`now()`));
  await db.insert(passkeyChallenges).values({
    idHash: hashToken(id),
    purpose,
    userId,
    challenge,
    expiresAt: new Date(Date.now() + CEREMONY_TTL_MS),
  });
  return id;
}

/**
 * Uses the challenge the cookie names, once: deleted in the statement that finds it, so two
 * answers to one challenge cannot both pass. Undefined when there is no cookie, or its
 * challenge is unknown, of the other purpose, already used or expired (an expired one is
 * used up all the same).
 */
export async function takeChallenge(
  db: Database,
  purpose: CeremonyPurpose,
  id: string | undefined,
): Promise<CeremonyChallenge | undefined> {
  if (!id) return undefined;
  const [row] = await db
    .delete(passkeyChallenges)
    .where(and(eq(passkeyChallenges.idHash, hashToken(id)), eq(passkeyChallenges.purpose, purpose)))
    .returning();
  if (!row || row.expiresAt.getTime() <= Date.now()) return undefined;
  return { challenge: row.challenge, userId: row.userId };
}
