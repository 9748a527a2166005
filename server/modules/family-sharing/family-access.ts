import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  type EntitlementRow,
  entitlements,
  familyMembers,
  products,
} from '../../db/schema/index.ts';
import { currentSubscription } from '../billing/current-subscription.ts';

// Family access lives in the entitlement ledger only (DESIGN "Growing the house"): each
// accepted member has one row, source 'family', `family:{groupId}`, whose end follows the
// owner's own subscription row. Nothing else decides whether a member may connect.

export const familyRef = (groupId: number) => `family:${groupId}`;

/** The owner's plan as family sharing sees it: its seats and the ledger row of its access. */
export interface OwnerPlan {
  subscriptionId: number;
  seats: number;
  /** The owner's own access from this plan, from the ledger (null: never paid). */
  access: EntitlementRow | null;
}

export async function ownerPlan(db: Database, ownerId: number): Promise<OwnerPlan | null> {
  const subscription = await currentSubscription(db, ownerId);
  if (!subscription) return null;
  const [product] = await db
    .select({ seats: products.familySeats })
    .from(products)
    .where(eq(products.id, subscription.productId));
  const [access] = await db
    .select()
    .from(entitlements)
    .where(
      and(
        eq(entitlements.userId, ownerId),
        eq(entitlements.sourceRef, `subscription:${subscription.id}`),
      ),
    );
  return { subscriptionId: subscription.id, seats: product?.seats ?? 0, access: access ?? null };
}

function liveAt(row: EntitlementRow | null, at: Date): boolean {
  return !!row && !row.revokedAt && row.startsAt <= at && (row.endsAt === null || row.endsAt > at);
}

/** §4 an owner shares while their plan has family seats and gives them access now. */
export function sharesNow(plan: OwnerPlan | null, at: Date): plan is OwnerPlan {
  return !!plan && plan.seats > 0 && liveAt(plan.access, at);
}

/**
 * Where members' access ends: with the owner's plan while it shares (null while it renews
 * with no known end); at `now` once it no longer does (ended, refunded, changed to a plan
 * without seats).
 */
function membersEnd(plan: OwnerPlan | null, now: Date): { endsAt: Date | null; revoked: boolean } {
  if (plan && plan.seats > 0 && plan.access && !plan.access.revokedAt) {
    return { endsAt: plan.access.endsAt, revoked: false };
  }
  return { endsAt: now, revoked: !!plan?.access?.revokedAt };
}

/**
 * Writes the ledger rows of a group's accepted members from the owner's plan. Answers the
 * members whose access changed, so they can be told. Safe to run again at any time: the
 * billing listener runs it after a change of the owner's plan, the sweep for every group.
 */
export async function syncGroupAccess(
  tx: Database,
  group: { id: number; ownerId: number },
  now: Date,
): Promise<number[]> {
  const plan = await ownerPlan(tx, group.ownerId);
  const end = membersEnd(plan, now);
  const members = await tx
    .select()
    .from(familyMembers)
    .where(and(eq(familyMembers.groupId, group.id), isNotNull(familyMembers.acceptedAt)));
  const changed: number[] = [];
  for (const member of members) {
    if (!member.userId || !member.acceptedAt) continue;
    const [row] = await tx
      .select()
      .from(entitlements)
      .where(
        and(
          eq(entitlements.userId, member.userId),
          eq(entitlements.source, 'family'),
          eq(entitlements.sourceRef, familyRef(group.id)),
        ),
      );
    let endsAt = end.endsAt;
    // An access that already ended stays ended where it did, unless the owner's plan gives
    // access again (a renewal after a lapse): the ledger's history stays true.
    if (row?.endsAt && row.endsAt <= now && endsAt !== null && endsAt <= now) endsAt = row.endsAt;
    const revokedAt = end.revoked ? (row?.revokedAt ?? now) : null;
    const same =
      row &&
      (row.endsAt?.getTime() ?? null) === (endsAt?.getTime() ?? null) &&
      (row.revokedAt?.getTime() ?? null) === (revokedAt?.getTime() ?? null);
    if (same) continue;
    await grantFamilyAccess(tx, member.userId, group.id, member.acceptedAt, endsAt, revokedAt);
    changed.push(member.userId);
  }
  return changed;
}

export async function grantFamilyAccess(
  tx: Database,
  userId: number,
  groupId: number,
  startsAt: Date,
  endsAt: Date | null,
  revokedAt: Date | null = null,
): Promise<void> {
  await tx
    .insert(entitlements)
    .values({
      userId,
      source: 'family',
      sourceRef: familyRef(groupId),
      startsAt,
      endsAt,
      revokedAt,
    })
    .onConflictDoUpdate({
      target: [entitlements.userId, entitlements.source, entitlements.sourceRef],
      set: { startsAt, endsAt, revokedAt, updatedAt: sql`now()` },
    });
}

/** A member removed or leaving: their family access ends now (earlier ends stay). */
export async function endFamilyAccess(
  tx: Database,
  userId: number,
  groupId: number,
  now: Date,
): Promise<void> {
  await tx
    .update(entitlements)
    .set({
      endsAt: sql`least(coalesce(${entitlements.endsAt}, ${now.toISOString()}::timestamptz), ${now.toISOString()}::timestamptz)`,
    })
    .where(
      and(
        eq(entitlements.userId, userId),
        eq(entitlements.source, 'family'),
        eq(entitlements.sourceRef, familyRef(groupId)),
      ),
    );
}

/** Members' access from the owner's plan now, for the moment a member accepts. */
export function memberAccessEnd(plan: OwnerPlan): Date | null {
  return plan.access?.endsAt ?? null;
}
