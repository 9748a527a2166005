import { and, eq, isNull, sql } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import type { Database } from '../../db/client.ts';
import { oidcModels } from '../../db/schema/index.ts';
import { hashToken } from '../identity/secrets.ts';
import { normalizeUserCode } from './oidc-adapter.ts';

/** A device code a TV or router shows, as the person confirming it sees it. */
export interface DeviceCodeRequest {
  clientId: string;
  scopes: string[];
  expiresAt: Date;
}

export type DeviceCodeState = 'unknown' | 'expired' | 'used';

interface DeviceCodePayload {
  clientId?: string;
  exp?: number;
  accountId?: string;
  error?: string;
  params?: { scope?: string };
}

async function rowOf(db: Database, userCode: string) {
  const [row] = await db
    .select()
    .from(oidcModels)
    .where(
      and(
        eq(oidcModels.model, 'DeviceCode'),
        eq(oidcModels.userCodeHash, hashToken(normalizeUserCode(userCode))),
      ),
    )
    .limit(1);
  return row;
}

function stateOf(payload: DeviceCodePayload, now: Date): DeviceCodeState | null {
  if (!payload.clientId) return 'unknown';
  if ((payload.exp ?? 0) * 1000 <= now.getTime()) return 'expired';
  if (payload.accountId || payload.error) return 'used';
  return null;
}

/** The request behind a code still waiting for its person, or why there is none. */
export async function pendingDeviceCode(
  db: Database,
  userCode: string,
  now = new Date(),
): Promise<DeviceCodeRequest | DeviceCodeState> {
  const row = await rowOf(db, userCode);
  if (!row) return 'unknown';
  const payload = row.payload as DeviceCodePayload;
  const state = stateOf(payload, now);
  if (state) return state;
  return {
    clientId: String(payload.clientId),
    scopes: (payload.params?.scope ?? 'openid').split(' ').filter(Boolean),
    expiresAt: new Date((payload.exp ?? 0) * 1000),
  };
}

/**
 * The person confirms the code: a grant for what the app asked is made, and the code
 * answers the app's next poll with tokens. Once only: of two confirmations at the same
 * moment, one wins and the other is told the code is used. Answers the grant's id.
 */
export async function approveDeviceCode(
  provider: Provider,
  db: Database,
  input: { userCode: string; accountId: string; amr: string[]; label: string },
  now = new Date(),
): Promise<string | DeviceCodeState> {
  const row = await rowOf(db, input.userCode);
  if (!row) return 'unknown';
  const payload = row.payload as DeviceCodePayload;
  const state = stateOf(payload, now);
  if (state) return state;
  const scope = payload.params?.scope ?? 'openid';
  const grant = new provider.Grant({
    accountId: input.accountId,
    clientId: String(payload.clientId),
  });
  grant.addOIDCScope(scope);
  const grantId = await grant.save();
  const approval = {
    accountId: input.accountId,
    grantId,
    scope,
    amr: input.amr,
    authTime: Math.floor(now.getTime() / 1000),
  };
  const taken = await db
    .update(oidcModels)
    .set({
      payload: sql`${oidcModels.payload} || ${JSON.stringify(approval)}::jsonb`,
      accountId: input.accountId,
      grantId,
    })
    .where(
      and(
        eq(oidcModels.model, 'DeviceCode'),
        eq(oidcModels.id, row.id),
        isNull(oidcModels.accountId),
      ),
    )
    .returning({ id: oidcModels.id });
  if (taken.length === 0) {
    await grant.destroy();
    return 'used';
  }
  await db
    .update(oidcModels)
    .set({ label: input.label })
    .where(and(eq(oidcModels.model, 'Grant'), eq(oidcModels.id, grantId)));
  return grantId;
}

/** The person refuses: the app's next poll is told `access_denied`. */
export async function denyDeviceCode(db: Database, userCode: string, now = new Date()) {
  const row = await rowOf(db, userCode);
  if (!row) return 'unknown';
  const state = stateOf(row.payload as DeviceCodePayload, now);
  if (state) return state;
  const refusal = { error: 'access_denied', errorDescription: 'The person refused the device.' };
  await db
    .update(oidcModels)
    .set({ payload: sql`${oidcModels.payload} || ${JSON.stringify(refusal)}::jsonb` })
    .where(and(eq(oidcModels.model, 'DeviceCode'), eq(oidcModels.id, row.id)));
  return 'denied';
}
