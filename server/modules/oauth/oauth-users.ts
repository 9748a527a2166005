import { and, eq, sql } from 'drizzle-orm';
import { AUTH_MESSAGES } from '#shared/contracts/auth.ts';
import { OAUTH_MESSAGES, type OAuthProviderId } from '#shared/contracts/oauth.ts';
import type { Lang } from '#shared/locales.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { oauthAccounts, type UserRow, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { OAuthIdentity } from '../../platform/oauth/oidc-client.ts';
import { deleteOtherSessions } from '../identity/sessions.ts';
import { uniqueUsername } from '../identity/usernames.ts';

/**
 * How the identity found its user: already linked, linked now, linked to an account whose
 * address nobody had proved (`secured`: see below), or a new account.
 */
export type Resolution = 'existing' | 'linked' | 'secured' | 'created';

export interface ResolvedUser {
  user: UserRow;
  resolution: Resolution;
  /** The sessions a `secured` account lost, whose pages must hear of it (§4 live events). */
  endedSessions?: string[];
}

/**
 * Writes the audit rows of a resolution that changed something (a link, a new account) in
 * the transaction that made the change, so the two commit together.
 */
export type RecordResolution = (tx: Database, resolved: ResolvedUser) => Promise<void>;

/** A blocked account signs in by no means, social ones included. */
export function refuseBlocked(user: UserRow): void {
  if (user.blockedAt) throw new AppError('forbidden', { info: AUTH_MESSAGES.accountBlocked });
}

async function linkedUser(db: Database, provider: OAuthProviderId, subject: string) {
  const [row] = await db
    .select({ user: users })
    .from(oauthAccounts)
    .innerJoin(users, eq(users.id, oauthAccounts.userId))
    .where(and(eq(oauthAccounts.provider, provider), eq(oauthAccounts.subject, subject)))
    .limit(1);
  return row?.user;
}

async function resolveOnce(
  db: Database,
  provider: OAuthProviderId,
  identity: OAuthIdentity,
  locale: Lang,
  record: RecordResolution,
): Promise<ResolvedUser> {
  const linked = await linkedUser(db, provider, identity.subject);
  if (linked) return { user: linked, resolution: 'existing' };

  const { email } = identity;
  // Every account has an address; a provider that withholds it cannot make or find one.
  if (!email) throw new AppError('bad_request', { info: OAUTH_MESSAGES.providerFailed });
  const link = { provider, subject: identity.subject, email };

  const [owner] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  if (owner) {
    // Only the provider's word that the person owns the address lets them into an
    // account someone else may have made with it.
    if (!identity.emailVerified) {
      throw new AppError('conflict', { info: OAUTH_MESSAGES.emailUnverified });
    }
    refuseBlocked(owner);
    if (owner.emailVerifiedAt) {
      return db.transaction(async (tx) => {
        await tx.insert(oauthAccounts).values({ ...link, userId: owner.id });
        const resolved: ResolvedUser = { user: owner, resolution: 'linked' };
        await record(tx, resolved);
        return resolved;
      });
    }
    // Pre-account hijacking: whoever signed up with this address never proved it, and may
    // not be its owner, who just did. Their password and sessions must not outlive that.
    return db.transaction(async (tx) => {
      await tx.insert(oauthAccounts).values({ ...link, userId: owner.id });
      const endedSessions = await deleteOtherSessions(tx, owner.id, undefined);
      const [row] = await tx
        .update(users)
        .set({ emailVerifiedAt: sql`now()`, passwordHash: null })
        .where(eq(users.id, owner.id))
        .returning();
      const resolved: ResolvedUser = { user: row ?? owner, resolution: 'secured', endedSessions };
      await record(tx, resolved);
      return resolved;
    });
  }

  const username = await uniqueUsername(db, email);
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(users)
      .values({
        email,
        name: identity.name?.slice(0, 255) ?? null,
        username,
        passwordHash: null,
        emailVerifiedAt: identity.emailVerified ? sql`now()` : null,
        locale,
      })
      .returning();
    if (!created) throw new Error('user insert returned nothing');
    await tx.insert(oauthAccounts).values({ ...link, userId: created.id });
    const resolved: ResolvedUser = { user: created, resolution: 'created' };
    await record(tx, resolved);
    return resolved;
  });
}

/**
 * The user an identity signs in as (§7 OAuth): the account already linked to it; else the
 * account with its e-mail address, linked now if the provider verified the address; else
 * a new account without a password. `record` audits a link or a new account in its
 * transaction; an account found already linked changed nothing and is not recorded.
 */
export async function resolveUser(
  db: Database,
  provider: OAuthProviderId,
  identity: OAuthIdentity,
  locale: Lang,
  record: RecordResolution,
): Promise<ResolvedUser> {
  try {
    return await resolveOnce(db, provider, identity, locale, record);
  } catch (error) {
    // Two sign-ins of one person at once (or a sign-up with the address): the unique
    // indexes let one win; the other finds what it made (its own rows rolled back).
    if (!isUniqueViolation(error)) throw error;
    return resolveOnce(db, provider, identity, locale, record);
  }
}
