import { and, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import { entitlements, familyGroups, familyMembers } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import type { Applied } from '../billing/apply-snapshots.ts';
import { syncGroupAccess } from './family-access.ts';
import { familyChanged } from './family-events.ts';

/** Re-reads one owner's plan into their members' access; tells those whose access changed. */
export async function syncOwner(
  app: App,
  ownerId: number,
  options: { tellEveryone?: boolean } = {},
): Promise<void> {
  const [group] = await app.db.select().from(familyGroups).where(eq(familyGroups.ownerId, ownerId));
  if (!group) return;
  const now = app.payments.clock.now();
  const changed = await app.db.transaction((tx) => syncGroupAccess(tx, group, now));
  if (options.tellEveryone) {
    // The owner's plan changed (a renewal, an end that comes at a date the rows already
    // hold): every member's page reads their access again.
    const seats = await app.db
      .select({ userId: familyMembers.userId })
      .from(familyMembers)
      .where(eq(familyMembers.groupId, group.id));
    const members = seats.flatMap((seat) => (seat.userId ? [seat.userId] : []));
    await familyChanged(app, group.id, [ownerId, ...members]);
  } else if (changed.length > 0) await familyChanged(app, group.id, [ownerId, ...changed]);
}

/** billing-listeners: a change of an owner's plan (renewal, expiry, refund) reaches members. */
export async function onOwnerBilling(app: App, applied: Applied): Promise<void> {
  const ownerId = applied.userId ?? applied.subscription?.row.userId;
  if (ownerId) await syncOwner(app, ownerId, { tellEveryone: true });
}

/**
 * The safety net: marks invites whose week is over (§4 expired_at), and re-reads every
 * group's owner plan in case a listener's run was lost between a billing commit and it.
 */
export async function familySweep(app: App): Promise<void> {
  const now = app.payments.clock.now();
  const expired = await app.db
    .update(familyMembers)
    .set({ expiredAt: familyMembers.inviteExpiresAt })
    .where(
      and(
        isNull(familyMembers.acceptedAt),
        isNull(familyMembers.expiredAt),
        lte(familyMembers.inviteExpiresAt, now),
      ),
    )
    .returning({ groupId: familyMembers.groupId, userId: familyMembers.userId });
  // A seat gone without its access ended with it (the owner's account deleted, which takes
  // the group and its seats with it): such access ends now.
  const orphaned = await app.db
    .update(entitlements)
    .set({ endsAt: now })
    .where(
      and(
        eq(entitlements.source, 'family'),
        isNull(entitlements.revokedAt),
        or(isNull(entitlements.endsAt), gt(entitlements.endsAt, now)),
        sql`not exists (select 1 from ${familyMembers} where ${familyMembers.userId} = ${entitlements.userId} and ${familyMembers.acceptedAt} is not null and 'family:' || ${familyMembers.groupId} = ${entitlements.sourceRef})`,
      ),
    )
    .returning({ userId: entitlements.userId });
  if (orphaned.length > 0) {
    await familyChanged(
      app,
      null,
      orphaned.map((row) => row.userId),
    );
  }
  const groups = await app.db.select().from(familyGroups);
  for (const group of groups) {
    if (expired.some((row) => row.groupId === group.id)) {
      const invitees = expired.flatMap((row) =>
        row.groupId === group.id && row.userId ? [row.userId] : [],
      );
      await familyChanged(app, group.id, [group.ownerId, ...invitees]);
    }
    await syncOwner(app, group.ownerId);
  }
}
