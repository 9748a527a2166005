import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { adminUrl, withDatabaseName } from '../../server/test/postgres-urls.ts';
import {
  type ServerProcess,
  startServerProcess as startProcess,
} from '../../server/test/server-process.ts';
import { serviceTestMode } from '../../server/test/service-rule.ts';

// More server processes than playwright.config.ts starts: real `node server/main.ts`
// processes on a PostgreSQL database of their own and a Redis, serving the built app, as N
// processes behind a load balancer.

export type { ServerProcess };

/** The services a scale-out journey needs; scripts/test.sh starts them and exports these. */
const SERVICES = ['TEST_DATABASE_URL', 'TEST_REDIS_URL'] as const;

export interface TestServices {
  databaseUrl: string;
  redisUrl: string;
}

/** The services, or why they are missing and whether that fails the run (service-rule.ts). */
export function testServices():
  | { services: TestServices }
  | { missing: string; required: boolean } {
  const { TEST_DATABASE_URL: databaseUrl, TEST_REDIS_URL: redisUrl } = process.env;
  if (serviceTestMode(SERVICES) === 'run' && databaseUrl && redisUrl) {
    return { services: { databaseUrl, redisUrl } };
  }
  const missing = SERVICES.filter((name) => !process.env[name]);
  return {
    missing: `${missing.join(' and ')} not set`,
    required: serviceTestMode(SERVICES) === 'fail',
  };
}

async function onMaintenanceDatabase(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl(serverUrl) });
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
    url: withDatabaseName(serverUrl, name),
    drop: () => onMaintenanceDatabase(serverUrl, `drop database if exists ${name} with (force)`),
  };
}

/** Shared by the processes, as APP_SECRET is in a deployment (sessions, realtime secret). */
const APP_SECRET = 'e2e-scale-out-app-secret-0123456789abcdef';

/** One server process serving the built app, mailing to the journeys' mail catcher. */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  return startProcess({
    APP_SECRET,
    SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_SMTP_PORT ?? 4318}`,
    // Every request comes from 127.0.0.1 (see playwright.config.ts).
    RATE_LIMIT_SCALE: '100',
    ...env,
  });
}
