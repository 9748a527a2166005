import { and, eq, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../../db/client.ts';
import { oidcModels } from '../../db/schema/index.ts';
import { hashToken } from '../identity/secrets.ts';

/**
 * How long a refresh token that was just rotated still works: two tabs (or an app and its
 * widget) refreshing at the same moment both get tokens instead of the later one being
 * taken for a thief and the person signed out everywhere. Past it, a reused token revokes
 * its whole grant (the provider's reuse detection).
 */
export const REFRESH_REUSE_GRACE_MS = 30_000;

/**
 * The ids that are bearer secrets (token values, the session cookie, the interaction in the
 * URL) are stored as their SHA-256, and the payload's own copy of them is left out and put
 * back from the id that was asked for. A grant's id is no secret: tokens point at it.
 */
const keepsIdInClear = (model: string) => model === 'Grant';

/** What the provider's payloads carry that the columns copy out. */
interface KnownPayload extends AdapterPayload {
  grantId?: string;
  userCode?: string;
  uid?: string;
  accountId?: string;
  clientId?: string;
  consumed?: unknown;
}

/** oidc-provider's storage for one model, in `oidc_models` (PostgreSQL or PGlite). */
export class DrizzleAdapter implements Adapter {
  constructor(
    private readonly db: Database,
    private readonly model: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private key(id: string): string {
    return keepsIdInClear(this.model) ? id : hashToken(id);
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const { jti: _jti, userCode, ...rest } = payload as KnownPayload;
    const stored = keepsIdInClear(this.model) ? (payload as KnownPayload) : rest;
    const userCodeHash = userCode ? hashToken(normalizeUserCode(userCode)) : null;
    const values = {
      payload: stored as Record<string, unknown>,
      grantId: payload.grantId ?? null,
      uid: payload.uid ?? null,
      accountId: payload.accountId ?? null,
      clientId: payload.clientId ?? null,
      expiresAt: expiresIn ? new Date(this.now().getTime() + expiresIn * 1000) : null,
    };
    await this.db
      .insert(oidcModels)
      .values({ model: this.model, id: this.key(id), userCodeHash, ...values })
      .onConflictDoUpdate({
        target: [oidcModels.model, oidcModels.id],
        // A device code saved again after it was read by id (no user code in that payload)
        // keeps the code it can be found by.
        set: {
          ...values,
          userCodeHash: sql`coalesce(excluded.user_code_hash, ${oidcModels.userCodeHash})`,
        },
      });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const [row] = await this.db
      .select()
      .from(oidcModels)
      .where(and(eq(oidcModels.model, this.model), eq(oidcModels.id, this.key(id))))
      .limit(1);
    return row ? this.payloadOf(row, { jti: id }) : undefined;
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const [row] = await this.db
      .select()
      .from(oidcModels)
      .where(
        and(
          eq(oidcModels.model, this.model),
          eq(oidcModels.userCodeHash, hashToken(normalizeUserCode(userCode))),
        ),
      )
      .limit(1);
    // The device code's own value is not known here (only its hash): what is found can be
    // read, and is changed through approveDeviceCode, never saved back by the provider.
    return row ? this.payloadOf(row, { userCode }) : undefined;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const [row] = await this.db
      .select()
      .from(oidcModels)
      .where(and(eq(oidcModels.model, this.model), eq(oidcModels.uid, uid)))
      .limit(1);
    return row ? this.payloadOf(row, {}) : undefined;
  }

  async consume(id: string): Promise<void> {
    // The first use counts: a token consumed again within the grace keeps its first time.
    await this.db
      .update(oidcModels)
      .set({ consumedAt: sql`coalesce(${oidcModels.consumedAt}, now())` })
      .where(and(eq(oidcModels.model, this.model), eq(oidcModels.id, this.key(id))));
  }

  async destroy(id: string): Promise<void> {
    await this.db
      .delete(oidcModels)
      .where(and(eq(oidcModels.model, this.model), eq(oidcModels.id, this.key(id))));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db
      .delete(oidcModels)
      .where(and(eq(oidcModels.model, this.model), eq(oidcModels.grantId, grantId)));
  }

  private payloadOf(
    row: typeof oidcModels.$inferSelect,
    restore: { jti?: string; userCode?: string },
  ): AdapterPayload {
    const payload: KnownPayload = { ...row.payload, ...restore };
    if (row.consumedAt) {
      const since = this.now().getTime() - row.consumedAt.getTime();
      const inGrace = this.model === 'RefreshToken' && since < REFRESH_REUSE_GRACE_MS;
      if (!inGrace) payload.consumed = Math.floor(row.consumedAt.getTime() / 1000);
    }
    return payload;
  }
}

/**
 * Deletes what has expired; a day late, so a refresh token replayed just after its expiry is
 * still recognised as a replay rather than as unknown.
 */
export async function deleteExpiredModels(db: Database): Promise<void> {
  await db.delete(oidcModels).where(sql`${oidcModels.expiresAt} < now() - interval '1 day'`);
}

/** User codes are typed by people: case and separators do not count. */
export function normalizeUserCode(code: string): string {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, '');
}
