import pg from 'pg';
import type { Database } from './client.ts';

/** How the PostgreSQL pool stands (node-postgres's own counts). */
export interface PoolUsage {
  /** Connections open, busy or idle. */
  open: number;
  idle: number;
  /** Queries waiting for a connection: the pool is too small, or connections are held long. */
  waiting: number;
  max: number;
}

/** The pool behind the app's database; undefined on PGlite, one connection in this process. */
export function poolUsage(db: Database): PoolUsage | undefined {
  const client = (db as unknown as { $client: unknown }).$client;
  if (!(client instanceof pg.Pool)) return undefined;
  return {
    open: client.totalCount,
    idle: client.idleCount,
    waiting: client.waitingCount,
    max: client.options.max ?? 10,
  };
}
