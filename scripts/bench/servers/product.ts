import { buildApp } from '#server/app.ts';
import { testConfig } from '#server/config.ts';
import { openDatabase } from '#server/db/client.ts';
import { migrateDatabase } from '#server/db/migrate.ts';
import { failStartup, serve } from './serve.ts';

// The real application with every plugin and hook, on a fresh in-memory database so that
// each run starts from the same state and leaves nothing on disk.
async function start(): Promise<void> {
  const database = await openDatabase({ dataDir: 'memory://' });
  await migrateDatabase(database);
  const app = await buildApp(testConfig(), { database });
  await serve(app, () => database.close());
}

await start().catch(failStartup);
