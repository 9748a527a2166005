import { ConfigError, loadConfig, loadEnvFile } from '#server/config.ts';
import { openDatabase } from '#server/db/client.ts';
import { migrateDatabase } from '#server/db/migrate.ts';

// `npm run db:migrate`: applies the committed migrations to the configured database
// (DATABASE_URL, or the PGlite folder under DATA_DIR; an optional .env as for the server)
// without starting the server.
try {
  loadEnvFile();
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: `${config.dataDir}/db` });
  await migrateDatabase(database);
  await database.close();
  console.log(`migrated the ${database.driver === 'postgres' ? 'PostgreSQL' : 'PGlite'} database`);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
