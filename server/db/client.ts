import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** The one database type the services see, whichever driver is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseHandle =
  | { driver: 'postgres'; db: Database; pool: pg.Pool; close(): Promise<void> }
  | { driver: 'pglite'; db: Database; pglite: PGlite; close(): Promise<void> };

export interface OpenDatabaseOptions {
  /** A PostgreSQL URL; without it the embedded PGlite database is used. */
  url?: string | undefined;
  /** PGlite data folder, or `memory://` for an in-memory database. */
  dataDir?: string;
  /** An already open PGlite instance (tests load one from a migrated dump). */
  pglite?: PGlite;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
  /** How long PostgreSQL may take to accept a connection (or a pool slot to free up). */
  connectTimeoutMs?: number;
}

/**
 * pg waits forever for a server that never answers (a dropped route, a firewall that
 * blackholes): every request, and the readiness check, would hang with it.
 */
export const CONNECT_TIMEOUT_MS = 5_000;

const drizzleOptions = { schema, casing: 'snake_case' } as const;

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      // TCP keep-alive probes after 10 s of silence, so a connection whose server vanished
      // (failover, a dropped route) is found dead and replaced rather than kept in the pool.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    // An idle client that loses its connection must not crash the process.
    pool.on('error', () => {});
    // Nor one checked out between two statements (a transaction waiting on other work, a
    // lock held): its 'error' event had no listener and took the process down when PostgreSQL
    // restarted under load. Its next query fails instead, and the pool drops it on release.
    pool.on('connect', (client) => client.on('error', () => {}));
    return {
      db: drizzleNodePg({ client: pool, ...drizzleOptions }) as unknown as Database,
      driver: 'postgres',
      pool,
      close: () => pool.end(),
    };
  }
  let client = options.pglite;
  if (!client) {
    const dataDir = options.dataDir ?? 'memory://';
    if (!dataDir.startsWith('memory://'))
      await mkdir(dirname(resolve(dataDir)), { recursive: true });
    client = await PGlite.create(dataDir);
  }
  const instance = client;
  return {
    db: drizzlePglite({ client: instance, ...drizzleOptions }) as unknown as Database,
    driver: 'pglite',
    pglite: instance,
    close: () => instance.close(),
  };
}

/** Rows of a raw SQL query; both drivers answer with `{ rows }`. */
export async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as { rows: T[] };
  return result.rows;
}

/** True when the database answers within `timeoutMs`; false when it fails or is slower. */
export async function pingDatabase(db: Database, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const answered = db.execute(sql`select 1`).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}
