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
  // As `npm start` runs (server/main.ts): the job queue polls and the scheduled sweeps run
  // (buildApp's defaults; tests turn them off), and a JSON line per request is logged at
  // `info` by the writer stdout gets (log-destination.ts), here aimed at /dev/null as a
  // deployment's stdout is at a collector (BENCH_LOG_LEVEL=silent shows what logging costs;
  // BENCH_LOG_FILE keeps the lines). Not the demo data (SEED_DEMO: its simulated VPN nodes
  // are no production work). BENCH_METRICS=1 counts requests for Prometheus too (a metrics
  // port nobody scrapes), as a deployment with METRICS_PORT does.
  const app = await buildApp(
    testConfig({
      NODE_ENV: 'development',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'info',
      TRUST_PROXY: 'loopback',
      SITE_ENTRY: './dist/server/entry-server.js',
      ...(process.env.BENCH_METRICS ? { METRICS_PORT: '0' } : {}),
    }),
    { database, logFile: process.env.BENCH_LOG_FILE || '/dev/null' },
  );
  await serve(app, () => database.close());
}

await start().catch(failStartup);
