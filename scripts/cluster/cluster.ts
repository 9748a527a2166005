import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { answersOk, type ManagedProcess, managedProcess } from './processes.ts';
import { type Postgres, type RedisServer, startPostgres, startRedis } from './services.ts';
import {
  APP_COMMAND,
  appEnvironment,
  BALANCER_ARGS,
  balancerEnvironment,
  CLUSTER_PORTS,
  READINESS_PATH,
  rehearsalEnvironment,
} from './topology.ts';

// Two app processes on one PostgreSQL and one Redis behind HAProxy, all on loopback: what
// compose.yaml deploys, started as plain processes so that tests can take any part away.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ClusterOptions {
  /** Holds the database, uploads, secrets and logs; kept between runs. */
  dir: string;
  ports?: { balancer: number; apps: readonly [number, number]; postgres: number; redis: number };
  /** On top of every app's environment (e.g. SMTP_URL). */
  env?: Record<string, string>;
}

export interface Cluster {
  /** The balancer's address: the product's public URL. */
  url: string;
  appUrls: readonly [string, string];
  apps: readonly [ManagedProcess, ManagedProcess];
  balancer: ManagedProcess;
  postgres: Postgres;
  redis: RedisServer;
  databaseUrl: string;
  sandboxWebhookSecret: string;
  logDir: string;
  /** Apps first (SIGTERM: they drain), then the balancer, Redis and PostgreSQL. */
  stop(): Promise<void>;
}

const DEFAULT_PORTS = {
  balancer: CLUSTER_PORTS.balancer,
  apps: CLUSTER_PORTS.apps,
  postgres: 5433,
  redis: 6380,
} as const;

/** A secret kept in the cluster's folder, made on the first run (every process shares it). */
function keptSecret(dir: string, name: string): string {
  const file = join(dir, name);
  if (!existsSync(file))
    writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

async function ensureDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const ports = options.ports ?? DEFAULT_PORTS;
  const dir = options.dir;
  mkdirSync(dir, { recursive: true });
  // PostgreSQL runs as its own user and must reach its folder below this one.
  chmodSync(dir, 0o755);
  const logDir = join(dir, 'logs');
  mkdirSync(logDir, { recursive: true });

  const postgres = await startPostgres(join(dir, 'postgres'), ports.postgres);
  const redis = await startRedis(join(dir, 'redis'), ports.redis).catch(async (error) => {
    await postgres.stop();
    throw error;
  });
  const databaseUrl = await ensureDatabase(postgres.url, 'vpn');
  const appSecret = keptSecret(dir, 'app-secret');
  const sandboxWebhookSecret = keptSecret(dir, 'sandbox-webhook-secret');
  const url = `http://127.0.0.1:${ports.balancer}`;
  const appUrls = ports.apps.map((port) => `http://127.0.0.1:${port}`) as [string, string];

  const apps = ports.apps.map((port, index) =>
    managedProcess({
      name: `app${index + 1}`,
      command: process.execPath,
      args: APP_COMMAND.slice(1),
      cwd: ROOT,
      logFile: join(logDir, `app${index + 1}.log`),
      env: {
        ...appEnvironment({
          host: '127.0.0.1',
          port,
          appUrl: url,
          databaseUrl,
          redisUrl: redis.url,
          dataDir: join(dir, 'data'),
        }),
        APP_SECRET: appSecret,
        ...rehearsalEnvironment(sandboxWebhookSecret),
        ...options.env,
      },
      ready: () => answersOk(`${appUrls[index]}${READINESS_PATH}`),
    }),
  ) as [ManagedProcess, ManagedProcess];

  const balancer = managedProcess({
    name: 'haproxy',
    command: 'haproxy',
    args: BALANCER_ARGS,
    cwd: ROOT,
    logFile: join(logDir, 'haproxy.log'),
    env: balancerEnvironment(`127.0.0.1:${ports.balancer}`, [
      `127.0.0.1:${ports.apps[0]}`,
      `127.0.0.1:${ports.apps[1]}`,
    ]),
    ready: () => answersOk(`${url}${READINESS_PATH}`),
  });

  const stop = async () => {
    await Promise.all(apps.map((app) => app.stop('SIGTERM')));
    await balancer.stop('SIGTERM', 5_000);
    await redis.stop();
    await postgres.stop();
  };

  try {
    // One after the other: the first migrates and seeds the demo (its modules seed in the
    // background after it is ready, each checking what is there, not under one lock).
    for (const app of apps) await app.start();
    await balancer.start();
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    appUrls,
    apps,
    balancer,
    postgres,
    redis,
    databaseUrl,
    sandboxWebhookSecret,
    logDir,
    stop,
  };
}
