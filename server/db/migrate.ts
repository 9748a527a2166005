import { fileURLToPath } from 'node:url';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { DatabaseHandle, Schema } from './client.ts';

const MIGRATION_LOCK_ID = 72_616_001;

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/** Applies the committed SQL migrations that have not run yet; safe to call at every start. */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  const config = { migrationsFolder: MIGRATIONS_FOLDER };
  if (handle.driver === 'postgres') {
    // Several processes may start at once against one server: only one migrates at a time.
    const client = await handle.pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      await migrateNodePg(handle.db as unknown as NodePgDatabase<Schema>, config);
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
      client.release();
    }
  } else {
    await migratePglite(handle.db as unknown as PgliteDatabase<Schema>, config);
  }
}
