import type { Passkey } from '#shared/contracts/passkeys.ts';
import type { PasskeyRow } from '../../db/schema/index.ts';

/** A passkey as its owner sees it: the public key, counter and credential id stay here. */
export function presentPasskey(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    backed_up: row.backedUp,
  };
}
