import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../db/client.ts';
import { adminUrl, TEMPLATE_DATABASE, withDatabaseName } from './postgres-urls.ts';

/**
 * A fresh, migrated database for one test file: a copy of the run's template database on
 * the real PostgreSQL server, or a PGlite instance loaded from the migrated dump. `close()`
 * drops it again.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const target = inject('testDatabase');
  if (target.kind === 'pglite') {
    const dump = new Blob([await readFile(target.dumpPath)]);
    return openDatabase({ pglite: await PGlite.create({ loadDataDir: dump }) });
  }
  const name = `vpn_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl(target.serverUrl) });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const handle = await openDatabase({
    url: withDatabaseName(target.serverUrl, name),
    maxConnections: 4,
  });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const dropper = new pg.Client({ connectionString: adminUrl(target.serverUrl) });
      await dropper.connect();
      await dropper
        .query(`drop database if exists ${name} with (force)`)
        .finally(() => dropper.end());
    },
  };
}
