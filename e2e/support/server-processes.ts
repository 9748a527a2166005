import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

// More server processes than playwright.config.ts starts: real `node server/main.ts`
// processes on a PostgreSQL database of their own and a Redis, serving the built app, as N
// processes behind a load balancer.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The services a scale-out journey needs; scripts/test.sh starts them and exports these. */
const SERVICES = ['TEST_DATABASE_URL', 'TEST_REDIS_URL'] as const;

export interface TestServices {
  databaseUrl: string;
  redisUrl: string;
}

/**
 * The services, or why they are missing. Missing services fail the journey where they are
 * required (REQUIRE_TEST_SERVICES=1, as `npm test` sets, or CI), since a skip there would let
 * the behaviour go untested unnoticed; elsewhere the journey is skipped with the reason.
 */
export function testServices():
  | { services: TestServices }
  | { missing: string; required: boolean } {
  const missing = SERVICES.filter((name) => !process.env[name]);
  const { TEST_DATABASE_URL: databaseUrl, TEST_REDIS_URL: redisUrl } = process.env;
  if (missing.length === 0 && databaseUrl && redisUrl)
    return { services: { databaseUrl, redisUrl } };
  return {
    missing: `${missing.join(' and ')} not set`,
    required: process.env.REQUIRE_TEST_SERVICES === '1' || Boolean(process.env.CI),
  };
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function onMaintenanceDatabase(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A new, empty database on the server at `serverUrl` (the processes migrate it). */
export async function createDatabase(
  serverUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `vpn_e2e_${randomBytes(6).toString('hex')}`;
  await onMaintenanceDatabase(serverUrl, `create database ${name}`);
  return {
    url: withDatabase(serverUrl, name),
    drop: () => onMaintenanceDatabase(serverUrl, `drop database if exists ${name} with (force)`),
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ServerProcess {
  url: string;
  port: number;
  /** SIGTERM, as a deployment would, and waits for the exit. */
  stop(): Promise<void>;
}

/** Shared by the processes, as APP_SECRET is in a deployment (sessions, realtime secret). */
const APP_SECRET = 'e2e-scale-out-app-secret-0123456789abcdef';

/** One `node server/main.ts`, ready (GET /readyz) before this resolves. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // node itself, not npx: the PID kept is the server's, so SIGTERM reaches it.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_URL: url,
      APP_SECRET,
      DATA_DIR: 'memory://',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_SMTP_PORT ?? 4318}`,
      // Every request comes from 127.0.0.1 (see playwright.config.ts).
      RATE_LIMIT_SCALE: '100',
      ...env,
    },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`server on ${port} exited with ${child.exitCode}: ${stderr}`);
    }
    try {
      if ((await fetch(`${url}/readyz`)).ok) return { url, port, stop };
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server on ${port} did not become ready: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
