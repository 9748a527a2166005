import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type DatabaseHandle, openDatabase } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { queueDbFor } from '../platform/queue/pg-boss-db.ts';
import { PgBossQueue } from '../platform/queue/pg-boss-queue.ts';
import { adminUrl, TEMPLATE_DATABASE, withDatabaseName } from './postgres-urls.ts';
import { silentLogger } from './silent-logger.ts';

// Migrates one database for the whole run, which every test file then copies: a template
// database on a real PostgreSQL server (TEST_DATABASE_URL), or a PGlite data-folder dump.
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const admin = await openDatabase({ url: adminUrl(serverUrl), maxConnections: 1 });
    if (admin.driver !== 'postgres') throw new Error('expected PostgreSQL');
    await admin.pool.query(`drop database if exists ${TEMPLATE_DATABASE} with (force)`);
    await admin.pool.query(`create database ${TEMPLATE_DATABASE}`);
    const template = await openDatabase({ url: withDatabaseName(serverUrl, TEMPLATE_DATABASE) });
    await prepare(template);
    await template.close();
    project.provide('testDatabase', { kind: 'postgres', serverUrl });
    return async () => {
      await admin.pool.query(`drop database if exists ${TEMPLATE_DATABASE} with (force)`);
      await admin.close();
    };
  }
  const handle = await openDatabase({ dataDir: 'memory://' });
  if (handle.driver !== 'pglite') throw new Error('expected PGlite');
  await prepare(handle);
  const dump = await handle.pglite.dumpDataDir('none');
  const dumpPath = join(tmpdir(), `vpn-test-db-${process.pid}.tar`);
  await writeFile(dumpPath, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('testDatabase', { kind: 'pglite', dumpPath });
  return async () => {};
}

/** The app's migrations, and the job queue's schema, which every test app would make again. */
async function prepare(handle: DatabaseHandle): Promise<void> {
  await migrateDatabase(handle);
  const queue = new PgBossQueue({ db: queueDbFor(handle.db), log: silentLogger });
  await queue.start();
  await queue.close();
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: { kind: 'postgres'; serverUrl: string } | { kind: 'pglite'; dumpPath: string };
  }
}
