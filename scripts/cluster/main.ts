import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { DEMO_ACCOUNTS } from '../../server/db/seed.ts';
import { type Cluster, startCluster } from './cluster.ts';

// `npm run cluster`: the production shape on this machine — two app processes
// (NODE_ENV=production) on a PostgreSQL and a Redis of their own behind HAProxy, with the demo
// accounts and the sandbox gateway. Ctrl-C (or SIGTERM) stops them all, apps first.

const REQUIRED = ['haproxy', 'redis-server', 'pg_ctlcluster'];

function missingPackages(): string[] {
  return REQUIRED.filter(
    (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status !== 0,
  );
}

async function main(): Promise<void> {
  const missing = missingPackages();
  if (missing.length > 0) {
    process.stderr.write(
      `missing: ${missing.join(', ')} — apt-get install haproxy redis-server postgresql\n`,
    );
    process.exit(1);
  }
  const dir = resolve(process.env.CLUSTER_DIR ?? 'data/cluster');
  const port = Number(process.env.PORT ?? 3000);
  process.stdout.write(`starting PostgreSQL, Redis, two app processes and HAProxy in ${dir} …\n`);
  const cluster: Cluster = await startCluster({
    dir,
    ports: { balancer: port, apps: [port + 1, port + 2], postgres: port + 3, redis: port + 4 },
  });
  const accounts = DEMO_ACCOUNTS.map((a) => `  ${a.role.padEnd(6)} ${a.email}  ${a.password}`);
  process.stdout.write(
    [
      `open ${cluster.url}/en (HAProxy → ${cluster.appUrls.join(', ')})`,
      `demo accounts (unless changed since the first run):`,
      ...accounts,
      `logs in ${cluster.logDir}; Ctrl-C stops everything`,
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('stopping: the apps drain, then HAProxy, Redis and PostgreSQL …\n');
    await cluster.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(
    `cluster failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
