import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type DatabaseHandle, openDatabase } from './client.ts';
import { migrateDatabase } from './migrate.ts';
import { seedDemoData } from './seed.ts';

export interface DatabasePluginOptions {
  /** A database the caller opened and migrated (tests); the plugin then leaves it open. */
  database?: DatabaseHandle | undefined;
}

// Decorates the app with `db`. Without an injected database it opens the configured one
// (PGlite under DATA_DIR, or PostgreSQL at DATABASE_URL), migrates it, seeds the demo data
// into an empty database when SEED_DEMO is on, and closes it with the app.
export const databasePlugin = fp<DatabasePluginOptions>(
  async (app: FastifyInstance, options) => {
    let handle = options.database;
    if (!handle) {
      const { databaseUrl, dataDir } = app.config;
      const pgliteDir = dataDir.startsWith('memory://') ? dataDir : `${dataDir}/db`;
      const opened = await openDatabase({ url: databaseUrl, dataDir: pgliteDir });
      handle = opened;
      app.addHook('onClose', () => opened.close());
      await migrateDatabase(opened);
      if (app.config.seedDemo && (await seedDemoData(opened.db))) {
        app.log.info('seeded demo data into the new database');
      }
    }
    app.decorate('db', handle.db);
  },
  { name: 'database' },
);
