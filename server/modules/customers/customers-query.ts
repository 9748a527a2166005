import {
  and,
  asc,
  count,
  desc,
  eq,
  ilike,
  isNotNull,
  isNull,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { CustomersQuery } from '#shared/contracts/admin/customers.ts';
import { listPage, pageWindow } from '#shared/contracts/list.ts';
import type { Database } from '../../db/client.ts';
import { containing } from '../../db/like.ts';
import { users } from '../../db/schema/index.ts';
import { presentCustomerSummary } from './customer-presenter.ts';

const SORTS = {
  created_at: users.createdAt,
  email: users.email,
  name: users.name,
  username: users.username,
} as const;

/** `column is not null` for true, `is null` for false, nothing when the filter is unset. */
function presence(column: AnyPgColumn, on?: boolean) {
  if (on === undefined) return undefined;
  return on ? isNotNull(column) : isNull(column);
}

function conditions(query: CustomersQuery): SQL | undefined {
  const where: (SQL | undefined)[] = [];
  if (query.search) {
    const pattern = containing(query.search);
    where.push(
      or(ilike(users.email, pattern), ilike(users.name, pattern), ilike(users.username, pattern)),
    );
  }
  if (query.role) where.push(eq(users.role, query.role));
  where.push(presence(users.emailVerifiedAt, query.verified));
  where.push(presence(users.blockedAt, query.blocked));
  where.push(presence(users.deleteAt, query.deactivated));
  return and(...where);
}

/** §2 /admin/customers: the accounts that match, in the order asked, a page at a time. */
export async function listCustomers(db: Database, query: CustomersQuery) {
  const where = conditions(query);
  const order = query.direction === 'asc' ? asc : desc;
  // Accounts without a name (or other value) come last, whichever way the list is sorted.
  const by = sql`${SORTS[query.sort]} ${sql.raw(query.direction)} nulls last`;
  const { offset, limit } = pageWindow(query);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      // The id breaks ties, so a page never repeats or skips a row of equal sort values.
      .orderBy(by, order(users.id))
      .offset(offset)
      .limit(limit),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return listPage(rows.map(presentCustomerSummary), query, total?.n ?? 0);
}
