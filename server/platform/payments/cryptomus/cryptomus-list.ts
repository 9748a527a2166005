import { GatewayUnavailable } from '../gateway.ts';
import type { CryptomusClient } from './cryptomus-client.ts';
import { type CryptomusInvoice, cryptomusInvoiceList } from './cryptomus-objects.ts';

// The daily reconciliation's read (doc "Payment history", POST /v1/payment/list): invoices
// filtered by creation date, paged by a cursor in the query string. An invoice is paid or
// cancelled within its lifetime (an hour) plus the chain's confirmations; a refund later is
// asked by us and comes back by webhook. So invoices made from a day before `since` cover
// the ones that changed since.

/** Cryptomus's dates are Moscow time (UTC+3), written `YYYY-MM-DD HH:mm:ss`. */
export function cryptomusDate(at: Date): string {
  const moscow = new Date(at.getTime() + 3 * 3_600_000).toISOString();
  return `${moscow.slice(0, 10)} ${moscow.slice(11, 19)}`;
}

export async function* listInvoicesSince(
  client: CryptomusClient,
  since: Date,
): AsyncIterable<CryptomusInvoice> {
  const from = new Date(since.getTime() - 86_400_000);
  let cursor: string | null = null;
  // A cursor seen twice would page forever.
  const seen = new Set<string>();
  do {
    const answer = cryptomusInvoiceList.safeParse(
      await client.call(
        '/v1/payment/list',
        { date_from: cryptomusDate(from) },
        cursor ? { cursor } : undefined,
      ),
    );
    if (!answer.success) throw new GatewayUnavailable('Cryptomus answered an unknown list shape');
    for (const invoice of answer.data.items) {
      const changed = invoice.updated_at ? new Date(invoice.updated_at) : null;
      if (!changed || Number.isNaN(changed.getTime()) || changed >= since) yield invoice;
    }
    cursor = answer.data.paginate.nextCursor ?? null;
    if (cursor && seen.has(cursor)) break;
    if (cursor) seen.add(cursor);
  } while (cursor);
}
