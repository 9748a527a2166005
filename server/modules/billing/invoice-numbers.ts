import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';

/** The lock of billing's shared rows; the same number as in migration 0026's trigger. */
export const BILLING_BOOKS_LOCK = 7_248_130_012;

/**
 * Takes the books' lock for the rest of the transaction (migration 0026's triggers take it at
 * a transaction's first change of invoices, subscriptions or refunds). Taken before a row of
 * those is locked to be read and then changed: a row lock held while waiting for the books
 * deadlocks with a change that holds the books and waits for that row.
 */
export async function lockBooks(tx: Database): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${BILLING_BOOKS_LOCK})`);
}

/**
 * The next number of the year's series, `INV-2026-000042`. Taken inside the transaction that
 * finalizes the invoice: the counter's row stays locked until it commits, and a rollback
 * gives the number back, so the series has no gaps and no number twice.
 */
export async function nextInvoiceNumber(tx: Database, issuedAt: Date): Promise<string> {
  const year = issuedAt.getUTCFullYear();
  // The books' lock first, as every change of invoices, subscriptions and refunds takes it
  // (migration 0026): the counter and the statistics rows are then always locked in turn.
  await lockBooks(tx);
  const [row] = await queryRows<{ taken: number }>(
    tx,
    sql`insert into invoice_counters (year, next) values (${year}, 2)
        on conflict (year) do update set next = invoice_counters.next + 1
        returning next - 1 as taken`,
  );
  if (!row) throw new Error('invoice counter returned no row');
  return `INV-${year}-${String(row.taken).padStart(6, '0')}`;
}
