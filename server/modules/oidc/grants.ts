import { and, eq, or } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { oidcModels } from '../../db/schema/index.ts';

/**
 * Ends what a person allowed an app: the grant and every code and token made under it, in
 * the caller's transaction. Its next refresh is refused, its access tokens stop at once.
 */
export async function revokeGrant(db: Database, grantId: string): Promise<void> {
  await db
    .delete(oidcModels)
    .where(
      or(
        eq(oidcModels.grantId, grantId),
        and(eq(oidcModels.model, 'Grant'), eq(oidcModels.id, grantId)),
      ),
    );
}
