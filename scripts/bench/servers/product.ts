import { openSync, writeSync } from 'node:fs';
import { buildApp } from '#server/app.ts';
import { testConfig } from '#server/config.ts';
import { openDatabase } from '#server/db/client.ts';
import { migrateDatabase } from '#server/db/migrate.ts';
import { products } from '#server/db/schema/index.ts';
import { seedDemoCatalog } from '#server/modules/billing/demo-catalog.ts';
import { seedDemoContent } from '#server/modules/content/demo-content.ts';
import { failStartup, serve } from './serve.ts';

// The real application with every plugin and hook, on a fresh in-memory database so that
// each run starts from the same state and leaves nothing on disk; or, with
// BENCH_DATABASE_URL, on that PostgreSQL database (which should be empty and disposable).
async function start(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL || undefined;
  const database = await openDatabase({ url, dataDir: 'memory://' });
  await migrateDatabase(database);
  // The demo catalog, so the billing scenarios have plans to buy.
  if (!(await database.db.select().from(products).limit(1)).length)
    await seedDemoCatalog(database.db);
  // The demo posts, so a public page can be served (rendered by the built app: npm run build).
  await seedDemoContent(database.db);
  // Benchmarks vary X-Forwarded-For per request (scenarios.ts), as traffic behind a proxy
  // does; the runner on loopback plays the proxy.
  // BENCH_LOG_LEVEL=info: the product logs as in production (a JSON line per request, written
  // synchronously as pino writes stdout) into /dev/null, so a run shows what logging costs.
  // BENCH_METRICS=1 counts requests for Prometheus too (a metrics port nobody scrapes).
  const logLevel = process.env.BENCH_LOG_LEVEL;
  const devNull = logLevel ? openSync('/dev/null', 'w') : undefined;
  const app = await buildApp(
    testConfig({
      TRUST_PROXY: 'loopback',
      SITE_ENTRY: './dist/server/entry-server.js',
      ...(logLevel ? { LOG_LEVEL: logLevel } : {}),
      ...(process.env.BENCH_METRICS ? { METRICS_PORT: '0' } : {}),
    }),
    {
      database,
      logStream: devNull === undefined ? undefined : { write: (line) => writeSync(devNull, line) },
    },
  );
  await serve(app, () => database.close());
}

await start().catch(failStartup);
