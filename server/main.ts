import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, loadEnvFile } from './config.ts';
import { DEMO_ACCOUNTS } from './db/seed.ts';
import { DEMO_FAMILY_OWNER } from './modules/family-sharing/demo-family.ts';

// The process entry: read the configuration (the environment over an optional .env), build
// the app, listen, and close gracefully on SIGTERM/SIGINT (in-flight requests finish; new
// ones get 503) within a time limit, after a drain in which /readyz already fails.
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    loadEnvFile();
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const app = await buildApp(config);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down');
    // Readiness fails first while requests are still served: the load balancer's checks
    // take the process out, then it stops listening and lets in-flight requests finish.
    app.draining = true;
    if (config.shutdownDrainMs > 0) await sleep(config.shutdownDrainMs);
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // A library's promise that rejects with nobody listening (pg-boss 10 completes a job without
  // handling a failed query, seen when the pool timed out under load) must not take every
  // request in flight down with the process: it is logged as the fault it is, and the server
  // goes on. Our own code awaits what it starts.
  process.on('unhandledRejection', (reason: unknown) => {
    app.log.error({ err: reason }, 'unhandled promise rejection');
  });

  await app.listen({ host: config.host, port: config.port });
  if (config.seedDemo) {
    const lines = DEMO_ACCOUNTS.map((a) => `  ${a.role.padEnd(6)} ${a.email}  ${a.password}`);
    if (config.features.has('family_sharing') && config.features.has('billing')) {
      const owner = DEMO_FAMILY_OWNER;
      lines.push(`  ${'USER'.padEnd(6)} ${owner.email}  ${owner.password}  (family plan owner)`);
    }
    app.log.info(`demo accounts (unless changed since the first run):\n${lines.join('\n')}`);
  }
  app.log.info(`open ${config.appUrl}/${config.defaultLocale}`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
