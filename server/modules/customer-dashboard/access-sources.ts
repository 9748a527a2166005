import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { EntitlementSource } from '#shared/billing/billing-values.ts';
import type { AccessSource, DashboardResponse } from '#shared/contracts/dashboard.ts';
import { personName } from '#shared/family/person-name.ts';
import type { Database } from '../../db/client.ts';
import {
  type EntitlementRow,
  entitlements,
  familyGroups,
  familyMembers,
  users,
} from '../../db/schema/index.ts';
import { accessOf } from '../billing/entitlement-sync.ts';

const ORDER: readonly EntitlementSource[] = ['subscription', 'family', 'bonus', 'manual'];

/** The rule accessOf applies: not revoked, started, not yet ended. */
const liveAt = (row: EntitlementRow, at: Date) =>
  !row.revokedAt && row.startsAt <= at && (row.endsAt === null || row.endsAt > at);

/** Null (no end) wins over any date; otherwise the later one. */
function laterEnd(a: Date | null, b: Date | null): Date | null {
  if (a === null || b === null) return null;
  return a > b ? a : b;
}

/**
 * The owners whose family seats the rows are, by row. The ledger names the group
 * (`family:{group id}`); a reference that is not a group id falls back to the group the
 * user is an accepted member of (one at a time, by the table's unique index).
 */
async function familyOwners(
  db: Database,
  userId: number,
  rows: readonly EntitlementRow[],
): Promise<Map<EntitlementRow, string>> {
  const owners = new Map<EntitlementRow, string>();
  if (rows.length === 0) return owners;
  const groupIds = rows
    .map((row) => Number(row.sourceRef.split(':')[1]))
    .filter((id) => Number.isSafeInteger(id) && id > 0);
  const byGroup = new Map<number, string>();
  if (groupIds.length > 0) {
    const found = await db
      .select({ groupId: familyGroups.id, name: users.name, email: users.email })
      .from(familyGroups)
      .innerJoin(users, eq(users.id, familyGroups.ownerId))
      .where(inArray(familyGroups.id, groupIds));
    for (const owner of found) byGroup.set(owner.groupId, personName(owner));
  }
  let membership: string | undefined;
  for (const row of rows) {
    const named = byGroup.get(Number(row.sourceRef.split(':')[1]));
    if (named) {
      owners.set(row, named);
      continue;
    }
    if (membership === undefined) {
      const [own] = await db
        .select({ name: users.name, email: users.email })
        .from(familyMembers)
        .innerJoin(familyGroups, eq(familyGroups.id, familyMembers.groupId))
        .innerJoin(users, eq(users.id, familyGroups.ownerId))
        .where(and(eq(familyMembers.userId, userId), isNotNull(familyMembers.acceptedAt)))
        .limit(1);
      membership = own ? personName(own) : '';
    }
    if (membership) owners.set(row, membership);
  }
  return owners;
}

/**
 * The customer's VPN access at `at` as the entitlement ledger has it: whether and until when
 * from accessOf (the one answer), and why from the same live rows, one entry per source (and
 * per family owner) with its latest end. Ended and revoked rows say nothing.
 */
export async function accessSources(
  db: Database,
  userId: number,
  at: Date,
): Promise<DashboardResponse['access']> {
  const [access, rows] = await Promise.all([
    accessOf(db, userId, at),
    db
      .select()
      .from(entitlements)
      .where(and(eq(entitlements.userId, userId), isNull(entitlements.revokedAt))),
  ]);
  const live = rows.filter((row) => liveAt(row, at));
  const owners = await familyOwners(
    db,
    userId,
    live.filter((row) => row.source === 'family'),
  );
  const merged = new Map<
    string,
    { source: EntitlementSource; until: Date | null; from?: string }
  >();
  for (const row of live) {
    const from = row.source === 'family' ? owners.get(row) : undefined;
    const key = `${row.source}\u0000${from ?? ''}`;
    const seen = merged.get(key);
    if (seen) seen.until = laterEnd(seen.until, row.endsAt);
    else merged.set(key, { source: row.source, until: row.endsAt, ...(from ? { from } : {}) });
  }
  const sources: AccessSource[] = [...merged.values()]
    .sort((a, b) => ORDER.indexOf(a.source) - ORDER.indexOf(b.source))
    .map((entry) => ({
      source: entry.source,
      until: entry.until?.toISOString() ?? null,
      ...(entry.from ? { from: entry.from } : {}),
    }));
  return { active: access.active, until: access.until?.toISOString() ?? null, sources };
}
