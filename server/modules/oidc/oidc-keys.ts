import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { and, asc, desc, gt, isNull, or, sql } from 'drizzle-orm';
import type { JWK } from 'oidc-provider';
import type { Database } from '../../db/client.ts';
import { oidcSigningKeys } from '../../db/schema/index.ts';
import type { SecretBox } from '../../platform/crypto/secret-box.ts';

const generateKeyPairAsync = promisify(generateKeyPair);

const DAY_MS = 86_400_000;
/** A signing key is replaced after this long (the scheduled job checks daily). */
export const KEY_ROTATION_MS = 30 * DAY_MS;
/**
 * A replaced key stays published this long: past the life of the last ID token it signed
 * (an hour), with a margin for relying parties' cached key sets.
 */
export const RETIRED_KEY_KEPT_MS = DAY_MS;

const ALG = 'RS256';

async function newPrivateJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPairAsync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return { ...jwk, kid: randomBytes(12).toString('base64url'), alg: ALG, use: 'sig' } as JWK;
}

async function addKey(db: Database, box: SecretBox): Promise<string> {
  const jwk = await newPrivateJwk();
  const kid = String(jwk.kid);
  await db.insert(oidcSigningKeys).values({
    kid,
    alg: ALG,
    privateJwkSealed: box.seal(JSON.stringify(jwk)),
  });
  return kid;
}

export interface SigningKeys {
  /** The signing key first, then the retired ones still published. */
  keys: JWK[];
  /** Changes whenever the set does: the provider is rebuilt then. */
  fingerprint: string;
}

/** The published keys; the first start makes one. */
export async function signingKeys(db: Database, box: SecretBox): Promise<SigningKeys> {
  const read = () =>
    db
      .select()
      .from(oidcSigningKeys)
      .where(or(isNull(oidcSigningKeys.expiresAt), gt(oidcSigningKeys.expiresAt, sql`now()`)))
      .orderBy(
        sql`${oidcSigningKeys.retiredAt} IS NOT NULL`,
        desc(oidcSigningKeys.createdAt),
        asc(oidcSigningKeys.kid),
      );
  let rows = await read();
  if (!rows.some((row) => !row.retiredAt)) {
    await addKey(db, box);
    rows = await read();
  }
  return {
    keys: rows.map((row) => JSON.parse(box.open(row.privateJwkSealed)) as JWK),
    fingerprint: rows.map((row) => `${row.kid}:${row.retiredAt ? 'r' : 'a'}`).join(','),
  };
}

/**
 * Replaces the signing key when it is due (or `force`): a new key signs from now on, the old
 * one stays published until its tokens have expired, and keys past that are deleted.
 * Answers the new key's id, or null when nothing was due.
 */
export async function rotateSigningKey(
  db: Database,
  box: SecretBox,
  options: { now?: Date; force?: boolean } = {},
): Promise<string | null> {
  const now = options.now ?? new Date();
  await db.delete(oidcSigningKeys).where(sql`${oidcSigningKeys.expiresAt} <= ${now}`);
  const active = await db
    .select()
    .from(oidcSigningKeys)
    .where(isNull(oidcSigningKeys.retiredAt))
    .orderBy(desc(oidcSigningKeys.createdAt));
  const newest = active[0];
  const due = !newest || now.getTime() - newest.createdAt.getTime() >= KEY_ROTATION_MS;
  if (!due && !options.force) return null;
  const kid = await addKey(db, box);
  await db
    .update(oidcSigningKeys)
    .set({ retiredAt: now, expiresAt: new Date(now.getTime() + RETIRED_KEY_KEPT_MS) })
    .where(and(isNull(oidcSigningKeys.retiredAt), sql`${oidcSigningKeys.kid} <> ${kid}`));
  return kid;
}
