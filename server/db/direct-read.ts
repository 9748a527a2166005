import { PGlite } from '@electric-sql/pglite';
import { type Column, fillPlaceholders, getTableColumns, type Table } from 'drizzle-orm';
import pg from 'pg';
import type { Database } from './client.ts';

// A read on every request (the session lookup) is worth running closer to the driver: the
// SQL is still drizzle's, built once from the schema, but the rows are decoded here by each
// column's own mapping instead of by drizzle's prepared query, whose generic row mapper and
// promise layers cost about 6 µs of CPU a query over the driver's own (node-postgres, Node
// 20). Only whole rows of tables joined by INNER JOIN: no column is ever null by a join.

/** Table names to tables: the row answered has a table's row under each name. */
type Selection = Record<string, Table>;
export type RowsOf<S extends Selection> = { [K in keyof S]: S[K]['$inferSelect'] };

/** Types drizzle reads as text and decodes itself (its pg and PGlite sessions agree). */
const TEXT_TYPES = [
  1082, // date
  1114, // timestamp
  1184, // timestamptz
  1186, // interval
  1182, // date[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1231, // numeric[]
];
const asText = (value: string) => value;
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    TEXT_TYPES.includes(oid)
      ? asText
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};
const pgliteParsers = Object.fromEntries(TEXT_TYPES.map((oid) => [oid, asText]));

/** Runs `text` on the driver and decodes its rows (by `then`: a promise less than `await`). */
type RawRead = <T>(text: string, values: unknown[], decode: (row: unknown[]) => T) => Promise<T[]>;

function rawReadOf(db: Database): RawRead | undefined {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (client instanceof pg.Pool) {
    return (text, values, decode) =>
      client
        .query<unknown[]>({ text, values, rowMode: 'array', types: pgTypes })
        .then((result) => result.rows.map(decode));
  }
  if (client instanceof PGlite) {
    return (text, values, decode) =>
      client
        .query<unknown[]>(text, values, { rowMode: 'array', parsers: pgliteParsers })
        .then((result) => result.rows.map(decode));
  }
  return undefined;
}

/** Whether reads on `db` reach its driver (the app's database does; a transaction does not). */
export function readsDirectly(db: Database): boolean {
  return rawReadOf(db) !== undefined;
}

/**
 * Prepares a read of whole rows of the tables in `selection`, in that order (`query` gets
 * `db.select(selection)` to finish with its FROM, joins and WHERE, placeholders by name).
 * Answers a function of the placeholders' values. On a database this cannot reach the
 * driver of (a transaction's), drizzle runs the same query.
 */
export function prepareDirectRead<S extends Selection>(
  db: Database,
  selection: S,
  query: (select: ReturnType<Database['select']>) => DirectQuery,
): (values: Record<string, unknown>) => Promise<RowsOf<S>[]> {
  const built = query(db.select(selection as never));
  const rawRead = rawReadOf(db);
  if (!rawRead) {
    // An unnamed statement, as an ad-hoc query: no state left on the connection.
    const prepared = built.prepare('');
    return (values) => prepared.execute(values) as Promise<RowsOf<S>[]>;
  }
  const { sql: text, params } = built.toSQL();
  const tables = Object.entries(selection).map(
    ([name, table]) => [name, Object.entries(getTableColumns(table))] as const,
  );
  const decode = (row: unknown[]) => {
    const answer: Record<string, Record<string, unknown>> = {};
    let index = 0;
    for (const [name, columns] of tables) {
      const record: Record<string, unknown> = {};
      for (const [key, column] of columns as [string, Column][]) {
        const value = row[index++];
        record[key] = value === null ? null : column.mapFromDriverValue(value);
      }
      answer[name] = record;
    }
    return answer as RowsOf<S>;
  };
  return (values) => rawRead(text, fillPlaceholders(params, values), decode);
}

/** A finished select: its SQL, or drizzle's own prepared query of it. */
interface DirectQuery {
  toSQL(): { sql: string; params: unknown[] };
  prepare(name: string): { execute(values: Record<string, unknown>): Promise<unknown> };
}
