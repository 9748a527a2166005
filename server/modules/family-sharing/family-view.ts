import { and, desc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type {
  FamilyInvite,
  FamilyPerson,
  FamilySharing,
  FamilyUser,
} from '#shared/contracts/family-sharing.ts';
import { lifecycleActions } from '#shared/subscription/lifecycle.ts';
import type { Database } from '../../db/client.ts';
import {
  entitlements,
  type FamilyGroupRow,
  type FamilyMemberRow,
  familyGroups,
  familyMembers,
  type UserRow,
  users,
} from '../../db/schema/index.ts';
import { currentSubscription } from '../billing/current-subscription.ts';
import { familyRef, ownerPlan, sharesNow } from './family-access.ts';

// Presenters: family rows to the §3 shapes. Another family's member sees their owner's name
// and address and nothing else of them; secrets (token hashes) never leave the server.

const iso = (at: Date | null) => (at ? at.toISOString() : null);

export function presentPerson(
  user: Pick<UserRow, 'id' | 'name' | 'email' | 'photo'>,
): FamilyPerson {
  return { id: user.id, name: user.name, email: user.email, photo: user.photo };
}

/** §4 an invite is expired once its week is over, marked or not yet swept. */
export function expiredAt(seat: FamilyMemberRow, now: Date): Date | null {
  if (seat.acceptedAt) return null;
  if (seat.expiredAt) return seat.expiredAt;
  return seat.inviteExpiresAt <= now ? seat.inviteExpiresAt : null;
}

/** A seat that takes a place: a member, or an invite still open (not declined or expired). */
export function holdsSeat(seat: FamilyMemberRow, now: Date): boolean {
  return !!seat.acceptedAt || (!seat.declinedAt && !expiredAt(seat, now));
}

export async function ownedGroup(db: Database, userId: number): Promise<FamilyGroupRow | null> {
  const [group] = await db.select().from(familyGroups).where(eq(familyGroups.ownerId, userId));
  return group ?? null;
}

/** The accepted seat of a member, with its group. */
export async function memberSeat(db: Database, userId: number) {
  const [row] = await db
    .select({ seat: familyMembers, group: familyGroups })
    .from(familyMembers)
    .innerJoin(familyGroups, eq(familyGroups.id, familyMembers.groupId))
    .where(and(eq(familyMembers.userId, userId), isNotNull(familyMembers.acceptedAt)));
  return row ?? null;
}

export async function seatsOf(db: Database, groupId: number): Promise<FamilyMemberRow[]> {
  return db
    .select()
    .from(familyMembers)
    .where(eq(familyMembers.groupId, groupId))
    .orderBy(familyMembers.invitedAt, familyMembers.id);
}

async function peopleById(db: Database, ids: number[]): Promise<Map<number, UserRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select().from(users).where(inArray(users.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

async function groupUsers(db: Database, group: FamilyGroupRow, now: Date): Promise<FamilyUser[]> {
  const seats = await seatsOf(db, group.id);
  const people = await peopleById(db, [
    group.ownerId,
    ...seats.flatMap((seat) => (seat.userId ? [seat.userId] : [])),
  ]);
  const owner = people.get(group.ownerId);
  const ownerRow: FamilyUser[] = owner
    ? [
        {
          // The owner holds no seat: 0 names no seat, so resend and delete refuse it.
          user_id: 0,
          owner: true,
          accepted_at: iso(group.createdAt),
          declined_at: null,
          expired_at: null,
          invite_expires_at: null,
          email: owner.email,
          user: presentPerson(owner),
        },
      ]
    : [];
  return [
    ...ownerRow,
    ...seats.map((seat) => {
      const person = seat.userId ? people.get(seat.userId) : undefined;
      return {
        user_id: seat.id,
        owner: false,
        accepted_at: iso(seat.acceptedAt),
        declined_at: iso(seat.declinedAt),
        expired_at: iso(expiredAt(seat, now)),
        invite_expires_at: seat.acceptedAt ? null : iso(seat.inviteExpiresAt),
        email: seat.email,
        user: person ? presentPerson(person) : null,
      };
    }),
  ];
}

/** Invites to the caller's own address; shown only once the address is theirs (verified). */
async function invitesTo(db: Database, user: UserRow, now: Date): Promise<FamilyInvite[]> {
  if (!user.emailVerifiedAt) return [];
  const rows = await db
    .select({ seat: familyMembers, owner: users })
    .from(familyMembers)
    .innerJoin(familyGroups, eq(familyGroups.id, familyMembers.groupId))
    .innerJoin(users, eq(users.id, familyGroups.ownerId))
    .where(and(eq(familyMembers.email, user.email.toLowerCase()), isNull(familyMembers.acceptedAt)))
    .orderBy(desc(familyMembers.invitedAt), desc(familyMembers.id));
  return rows
    .filter(({ owner }) => owner.id !== user.id)
    .map(({ seat, owner }) => ({
      invite_id: seat.id,
      owner: presentPerson(owner),
      invited_at: seat.invitedAt.toISOString(),
      expires_at: seat.inviteExpiresAt.toISOString(),
      declined_at: iso(seat.declinedAt),
      expired_at: iso(expiredAt(seat, now)),
    }));
}

/** Whether the caller's own plan would renew (and be charged) beside family access. */
export async function ownPlanRenews(db: Database, userId: number): Promise<boolean> {
  const own = await currentSubscription(db, userId);
  if (!own || own.serviceId === 5) return false;
  return lifecycleActions({
    status: own.status,
    onetime: own.onetime,
    cancelAtPeriodEnd: own.cancelAtPeriodEnd,
    paymentMethodType: own.paymentMethodType,
  }).cancel;
}

/** The caller's family sharing, as every call answers it. */
export async function presentFamilySharing(
  db: Database,
  user: UserRow,
  now: Date,
): Promise<FamilySharing> {
  const base = {
    seats_used: 0,
    can_create: false,
    owner: null,
    users: [],
    invites: [],
    access_until: null,
    own_plan_renews: false,
  };
  const group = await ownedGroup(db, user.id);
  if (group) {
    const plan = await ownerPlan(db, user.id);
    const seats = await seatsOf(db, group.id);
    return {
      ...base,
      role: 'owner',
      group_id: group.id,
      seats: sharesNow(plan, now) ? plan.seats : 0,
      seats_used: seats.filter((seat) => holdsSeat(seat, now)).length,
      owner: presentPerson(user),
      users: await groupUsers(db, group, now),
    };
  }
  const membership = await memberSeat(db, user.id);
  if (membership) {
    const { group } = membership;
    const plan = await ownerPlan(db, group.ownerId);
    const people = await peopleById(db, [group.ownerId]);
    const owner = people.get(group.ownerId);
    const [access] = await db
      .select()
      .from(entitlements)
      .where(
        and(
          eq(entitlements.userId, user.id),
          eq(entitlements.source, 'family'),
          eq(entitlements.sourceRef, familyRef(group.id)),
        ),
      );
    const seats = await seatsOf(db, group.id);
    return {
      ...base,
      role: 'member',
      group_id: group.id,
      seats: plan?.seats ?? 0,
      seats_used: seats.filter((seat) => holdsSeat(seat, now)).length,
      owner: owner ? presentPerson(owner) : null,
      users: await groupUsers(db, group, now),
      access_until: access && !access.revokedAt ? iso(access.endsAt) : iso(now),
    };
  }
  const invites = await invitesTo(db, user, now);
  const open = invites.some((invite) => !invite.declined_at && !invite.expired_at);
  const plan = await ownerPlan(db, user.id);
  return {
    ...base,
    role: open ? 'invitee' : 'none',
    group_id: null,
    seats: plan?.seats ?? 0,
    can_create: sharesNow(plan, now),
    invites,
    own_plan_renews: await ownPlanRenews(db, user.id),
  };
}
