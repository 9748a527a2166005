import { PGlite, type Results } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type PgBoss from 'pg-boss';
import type { Database } from '../../db/client.ts';

// pg-boss runs its SQL through a `db` option ({ executeSql }) over our own connections: the
// app's pool on PostgreSQL (no second pool to size), the one PGlite instance, or an app
// transaction for a send that belongs to it.

type Rows = { rows: unknown[] };

/** pg-boss's `db`, which our plugin can close and wait for. */
export interface QueueDb extends PgBoss.Db {
  /** Queries under way, to wait for before the database closes. */
  inFlight(): Promise<unknown>[];
  /** From now on pg-boss's stragglers get no answer, as its own closed pool gives none. */
  close(): void;
}

/**
 * pg-boss's schema set-up, migrations and maintenance are scripts of several statements in
 * their own `BEGIN … COMMIT` (under an advisory lock), sent without parameters.
 */
const TRANSACTION_SCRIPT = /^\s*BEGIN\b/i;

function lastResult(results: Rows | Rows[]): Rows {
  return Array.isArray(results) ? (results.at(-1) ?? { rows: [] }) : results;
}

/** The pool or PGlite instance behind the app's Drizzle database. */
export function queueDbFor(db: Database): QueueDb {
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof PGlite) return tracked(pgliteDb(client));
  if (client instanceof pg.Pool) return tracked(poolDb(client));
  throw new Error('the job queue needs the app database on a pg Pool or PGlite');
}

function poolDb(pool: pg.Pool): PgBoss.Db {
  return {
    async executeSql(text, values) {
      if (values?.length || !TRANSACTION_SCRIPT.test(text)) {
        return lastResult((await pool.query(text, values)) as Rows | Rows[]);
      }
      // A script that fails midway leaves its connection inside an aborted transaction:
      // that connection is dropped rather than handed back to the pool.
      const client = await pool.connect();
      let failure: Error | undefined;
      try {
        return lastResult((await client.query(text)) as unknown as Rows | Rows[]);
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
        throw error;
      } finally {
        client.release(failure);
      }
    },
  };
}

/**
 * PGlite has one connection, and every `query`/`exec` (pg-boss's polling included) waits its
 * turn behind a `transaction()` the app holds open, so pg-boss never runs inside the app's
 * transaction. Its own scripts run inside a PGlite transaction: nothing of the app slips in
 * between their statements, and one that fails is rolled back rather than left open on the
 * only connection. (The script's own BEGIN and COMMIT inside it only draw notices.)
 */
function pgliteDb(pglite: PGlite): PgBoss.Db {
  return {
    async executeSql(text, values) {
      if (values?.length) return pglite.query(text, values);
      const results: Results[] = TRANSACTION_SCRIPT.test(text)
        ? await pglite.transaction((tx) => tx.exec(text))
        : await pglite.exec(text);
      return lastResult(results);
    },
  };
}

/**
 * A send inside an app transaction (Drizzle's), on either driver. Drizzle numbers parameters
 * in order of appearance while pg-boss's statements use some more than once (`$5` three
 * times): the values are listed once, in a leading comment, so they become `$1…$n` in order
 * and the statement's own placeholders point at them.
 */
export function transactionDb(tx: Database): PgBoss.Db {
  return {
    async executeSql(text, values = []) {
      const listed = values.map((value) => sql.param(value));
      const query = listed.length
        ? sql.join([sql.raw('/* '), sql.join(listed, sql.raw(' ')), sql.raw(' */ '), sql.raw(text)])
        : sql.raw(text);
      return (await tx.execute(query)) as unknown as Rows;
    },
  };
}

function tracked(inner: PgBoss.Db): QueueDb {
  const running = new Set<Promise<unknown>>();
  let closed = false;
  return {
    executeSql(text, values) {
      // pg-boss's own pool answers undefined once closed; its callers expect that.
      if (closed) return Promise.resolve(undefined as unknown as Rows);
      const query = inner.executeSql(text, values);
      running.add(query);
      const forget = () => running.delete(query);
      query.then(forget, forget);
      return query;
    },
    inFlight: () => [...running],
    close() {
      closed = true;
    },
  };
}
