import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { cpuTimeUs } from './measure.ts';

// What the product's database did for the fleet: the rows written (inserted, updated,
// deleted) per table, from pg_stat_user_tables, and the CPU time of the server processes
// serving the product's connections, from /proc (PostgreSQL on this machine).
//
// PostgreSQL 15 keeps the row counters in shared memory, and a backend adds its own there
// when it goes idle after a transaction, at most once a second; one that went idle too soon
// after its last flush does so 10 s later (PGSTAT_IDLE_INTERVAL). pg_stat_force_next_flush()
// hurries only the calling backend, not the product's. So a reading under load lags by a
// second or so, by a varying amount: over a 10 s window that is ±10 % of the rows. The rows
// are therefore counted between two quiet moments, before the nodes start and once they have
// stopped and every backend has flushed, and divided by every report answered in between.

/** How long after the last write every backend has flushed its counters. */
const FLUSHED_AFTER_MS = 11_000;

/** `schema.table` → inserts + updates + deletes so far. */
export type Writes = Map<string, number>;

export interface RowsWritten {
  /** Rows written to the product's tables (schema public). */
  rows: number;
  /** Per table with any writes, most first. */
  byTable: { table: string; rows: number }[];
}

/** The counters once this session's own writes (the seeding) are in them. */
export async function readWritesAtRest(client: pg.Client): Promise<Writes> {
  await client.query('SELECT pg_stat_force_next_flush()');
  return readWrites(client);
}

/** The counters after the product's backends have had time to flush: call once it is idle. */
export async function readWritesAfterFlush(client: pg.Client): Promise<Writes> {
  await sleep(FLUSHED_AFTER_MS);
  return readWrites(client);
}

async function readWrites(client: pg.Client): Promise<Writes> {
  // Drop this session's cached snapshot (stats_fetch_consistency = cache) before reading.
  await client.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await client.query<{ name: string; writes: string }>(`
    SELECT schemaname || '.' || relname AS name,
           (n_tup_ins + n_tup_upd + n_tup_del)::text AS writes
    FROM pg_stat_user_tables`);
  return new Map(rows.map((row) => [row.name, Number(row.writes)]));
}

export function rowsWritten(before: Writes, after: Writes): RowsWritten {
  const byTable = [...after]
    .filter(([name]) => name.startsWith('public.'))
    .map(([name, writes]) => ({
      table: name.slice('public.'.length),
      rows: writes - (before.get(name) ?? 0),
    }))
    .filter((entry) => entry.rows > 0)
    .sort((a, b) => b.rows - a.rows);
  return { rows: byTable.reduce((sum, entry) => sum + entry.rows, 0), byTable };
}

/** Backend pid → its CPU time so far, in µs: the product's pool, not this session. */
export async function readBackendCpu(client: pg.Client): Promise<Map<number, number>> {
  const { rows } = await client.query<{ pid: number }>(`
    SELECT pid FROM pg_stat_activity
    WHERE datname = current_database() AND backend_type = 'client backend'
      AND pid <> pg_backend_pid()`);
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    const us = await cpuTimeUs(pid);
    if (us !== undefined) cpu.set(pid, us);
  }
  return cpu;
}

/**
 * CPU the backends used between two readings, in µs; undefined without /proc. One that
 * connected in between counts from zero, one that left is lost (the pool keeps its
 * connections under this load, so neither happens much).
 */
export function backendCpuBetween(
  before: Map<number, number>,
  after: Map<number, number>,
): number | undefined {
  if (after.size === 0) return undefined;
  return [...after].reduce((sum, [pid, us]) => sum + us - (before.get(pid) ?? 0), 0);
}
