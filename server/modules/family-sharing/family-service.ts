import { and, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AuditAction } from '#shared/audit-actions.ts';
import {
  FAMILY_INVITE_DAYS,
  FAMILY_MESSAGES,
  type FamilyAnswerRequest,
  type FamilySharingResponse,
} from '#shared/contracts/family-sharing.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import {
  type FamilyMemberRow,
  familyGroups,
  familyMembers,
  type UserRow,
  users,
} from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { holdingSlot } from '../billing/idempotent.ts';
import { subscriptionAction } from '../billing/subscription-actions.ts';
import { hashToken, newToken } from '../identity/secrets.ts';
import {
  endFamilyAccess,
  grantFamilyAccess,
  memberAccessEnd,
  ownerPlan,
  sharesNow,
} from './family-access.ts';
import { familyChanged } from './family-events.ts';
import { inviteMail } from './family-mail.ts';
import {
  expiredAt,
  holdsSeat,
  memberSeat,
  ownedGroup,
  ownPlanRenews,
  presentFamilySharing,
  seatsOf,
} from './family-view.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Resending mails a stranger's inbox: a few per seat, and a bound per owner. */
const RESEND_LIMITS = {
  perSeat: { limit: 3, windowMs: HOUR_MS },
  perOwner: { limit: 20, windowMs: HOUR_MS },
} as const;
/** Invites mail strangers too: an owner fills a handful of seats, a spammer many. */
const INVITE_PER_OWNER = { limit: 20, windowMs: HOUR_MS } as const;
/** Answers by mailed token: the token is 256-bit, this guards the database per address. */
const ANSWER_PER_IP = { limit: 20, windowMs: 15 * 60_000 } as const;

const conflict = (info: string) => new AppError('conflict', { info });
const notFound = (info: string) => new AppError('not_found', { info });
const normalise = (email: string) => email.trim().toLowerCase();
/** 404, shown under the field: another group's seat is as unknown as none. */
const seatNotFound = () =>
  new AppError('not_found', {
    info: FAMILY_MESSAGES.seatNotFound,
    validation: { user_id: [FAMILY_MESSAGES.seatNotFound] },
  });

/**
 * §4 family sharing: a group per owner of a plan with family seats, invites by e-mail,
 * answers by the invited address, members' VPN access through the ledger. Every change is
 * audited in its transaction and told to everyone it concerns (Users\FamilySharingUpdated).
 */
export class FamilySharingService {
  constructor(private readonly app: App) {}

  private get db(): Database {
    return this.app.db;
  }

  private now(): Date {
    return this.app.payments.clock.now();
  }

  async view(user: UserRow): Promise<FamilySharingResponse> {
    return { familySharing: await presentFamilySharing(this.db, user, this.now()) };
  }

  private audit(
    tx: Database,
    request: FastifyRequest,
    action: AuditAction,
    actor: UserRow,
    groupId: number,
    data: Record<string, unknown>,
  ) {
    return recordAudit(tx, request, {
      action,
      actorId: actor.id,
      subjectType: 'family_group',
      subjectId: groupId,
      data,
    });
  }

  async create(request: FastifyRequest, user: UserRow): Promise<FamilySharingResponse> {
    const now = this.now();
    if (await ownedGroup(this.db, user.id)) throw conflict(FAMILY_MESSAGES.groupExists);
    if (await memberSeat(this.db, user.id)) throw conflict(FAMILY_MESSAGES.alreadyInGroup);
    const plan = await ownerPlan(this.db, user.id);
    if (!sharesNow(plan, now)) {
      throw conflict(FAMILY_MESSAGES.notEligible);
    }
    const group = await this.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(familyGroups)
        .values({ ownerId: user.id })
        .onConflictDoNothing()
        .returning();
      if (!created) throw conflict(FAMILY_MESSAGES.groupExists);
      await this.audit(tx, request, 'family.group_created', user, created.id, {
        seats: plan.seats,
      });
      return created;
    });
    await familyChanged(this.app, group.id, [user.id]);
    return this.view(user);
  }

  /** The caller's own group, with the plan that lets it share now. */
  private async sharingGroup(user: UserRow) {
    const group = await ownedGroup(this.db, user.id);
    if (!group) throw conflict(FAMILY_MESSAGES.notOwner);
    const plan = await ownerPlan(this.db, user.id);
    if (!sharesNow(plan, this.now())) {
      throw conflict(FAMILY_MESSAGES.ownerNoAccess);
    }
    return { group, plan };
  }

  /** A seat of the caller's own group; another group's seat is as unknown as none. */
  private async ownSeat(user: UserRow, seatId: number) {
    const group = await ownedGroup(this.db, user.id);
    if (!group) throw conflict(FAMILY_MESSAGES.notOwner);
    const [seat] = await this.db
      .select()
      .from(familyMembers)
      .where(and(eq(familyMembers.id, seatId), eq(familyMembers.groupId, group.id)));
    if (!seat) throw seatNotFound();
    return { group, seat };
  }

  async invite(
    request: FastifyRequest,
    user: UserRow,
    address: string,
  ): Promise<FamilySharingResponse> {
    const email = normalise(address);
    const now = this.now();
    const { group, plan } = await this.sharingGroup(user);
    if (email === user.email.toLowerCase()) {
      throw AppError.field('email', FAMILY_MESSAGES.inviteSelf);
    }
    const seats = await seatsOf(this.db, group.id);
    if (seats.some((seat) => seat.email === email)) {
      throw AppError.field('email', FAMILY_MESSAGES.alreadyInvited);
    }
    const [invitee] = await this.db.select().from(users).where(eq(users.email, email));
    if (
      invitee &&
      ((await ownedGroup(this.db, invitee.id)) || (await memberSeat(this.db, invitee.id)))
    ) {
      throw AppError.field('email', FAMILY_MESSAGES.inviteeInGroup);
    }
    if (seats.filter((seat) => holdsSeat(seat, now)).length >= plan.seats) {
      throw AppError.field('email', FAMILY_MESSAGES.seatsFull);
    }
    await this.app.rateLimiter.consume([
      { name: 'family-invite-owner', key: String(user.id), ...INVITE_PER_OWNER },
    ]);
    const token = newToken();
    const seat = await this.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(familyMembers)
        .values({
          groupId: group.id,
          email,
          tokenHash: hashToken(token),
          invitedAt: now,
          inviteExpiresAt: new Date(now.getTime() + FAMILY_INVITE_DAYS * DAY_MS),
        })
        .onConflictDoNothing()
        .returning();
      if (!created) throw AppError.field('email', FAMILY_MESSAGES.alreadyInvited);
      await this.audit(tx, request, 'family.invited', user, group.id, {
        seat_id: created.id,
        email,
      });
      return created;
    });
    await this.app.mailer.send(await inviteMail(this.app, user, seat, token, invitee ?? null));
    await familyChanged(this.app, group.id, [user.id, ...(invitee ? [invitee.id] : [])]);
    return this.view(user);
  }

  async resend(request: FastifyRequest, user: UserRow, seatId: number) {
    const now = this.now();
    const { group, seat } = await this.ownSeat(user, seatId);
    if (seat.acceptedAt) throw AppError.field('user_id', FAMILY_MESSAGES.alreadyAccepted);
    const { plan } = await this.sharingGroup(user);
    if (!holdsSeat(seat, now)) {
      const taken = (await seatsOf(this.db, group.id)).filter((s) => holdsSeat(s, now)).length;
      if (taken >= plan.seats) throw AppError.field('user_id', FAMILY_MESSAGES.seatsFull);
    }
    await this.app.rateLimiter.consume([
      { name: 'family-resend-seat', key: String(seat.id), ...RESEND_LIMITS.perSeat },
      { name: 'family-resend-owner', key: String(user.id), ...RESEND_LIMITS.perOwner },
    ]);
    const token = newToken();
    const renewed = await this.db.transaction(async (tx) => {
      // §4 a resend clears the expired and declined markers; the old link stops working.
      const [row] = await tx
        .update(familyMembers)
        .set({
          tokenHash: hashToken(token),
          invitedAt: now,
          inviteExpiresAt: new Date(now.getTime() + FAMILY_INVITE_DAYS * DAY_MS),
          declinedAt: null,
          expiredAt: null,
        })
        .where(and(eq(familyMembers.id, seat.id), isNull(familyMembers.acceptedAt)))
        .returning();
      if (!row) throw AppError.field('user_id', FAMILY_MESSAGES.alreadyAccepted);
      await this.audit(tx, request, 'family.invite_resent', user, group.id, {
        seat_id: seat.id,
        email: seat.email,
      });
      return row;
    });
    const [invitee] = await this.db.select().from(users).where(eq(users.email, seat.email));
    await this.app.mailer.send(await inviteMail(this.app, user, renewed, token, invitee ?? null));
    await familyChanged(this.app, group.id, [user.id, ...(invitee ? [invitee.id] : [])]);
    return this.view(user);
  }

  /** The owner removes a member (their access ends now) or withdraws an invite. */
  async remove(request: FastifyRequest, user: UserRow, seatId: number) {
    const now = this.now();
    const { group, seat } = await this.ownSeat(user, seatId);
    await this.db.transaction(async (tx) => {
      const [gone] = await tx
        .delete(familyMembers)
        .where(and(eq(familyMembers.id, seat.id), eq(familyMembers.groupId, group.id)))
        .returning();
      if (!gone) throw seatNotFound();
      if (gone.acceptedAt && gone.userId) await endFamilyAccess(tx, gone.userId, group.id, now);
      await this.audit(
        tx,
        request,
        gone.acceptedAt ? 'family.member_removed' : 'family.invite_withdrawn',
        user,
        group.id,
        { seat_id: gone.id, email: gone.email, user_id: gone.userId },
      );
    });
    const [invitee] = await this.db.select().from(users).where(eq(users.email, seat.email));
    const told = new Set([
      user.id,
      ...(seat.userId ? [seat.userId] : []),
      ...(invitee ? [invitee.id] : []),
    ]);
    await familyChanged(this.app, group.id, [...told]);
    return this.view(user);
  }

  async leave(request: FastifyRequest, user: UserRow) {
    const now = this.now();
    const membership = await memberSeat(this.db, user.id);
    if (!membership) throw new AppError('conflict', { info: FAMILY_MESSAGES.notMember });
    const { seat, group } = membership;
    await this.db.transaction(async (tx) => {
      const [gone] = await tx
        .delete(familyMembers)
        .where(eq(familyMembers.id, seat.id))
        .returning();
      if (!gone) throw new AppError('conflict', { info: FAMILY_MESSAGES.notMember });
      await endFamilyAccess(tx, user.id, group.id, now);
      await this.audit(tx, request, 'family.member_left', user, group.id, { seat_id: seat.id });
    });
    await familyChanged(this.app, group.id, [group.ownerId, user.id]);
    return this.view(user);
  }

  /**
   * The invite the caller answers: the mailed link's (its token proves the address), or one
   * to their verified address from the family page. Another address's invite is refused.
   */
  private async answerable(request: FastifyRequest, user: UserRow, answer: FamilyAnswerRequest) {
    const email = user.email.toLowerCase();
    let seat: FamilyMemberRow | undefined;
    if (answer?.token) {
      await this.app.rateLimiter.consume([
        { name: 'family-answer-ip', key: request.ip, ...ANSWER_PER_IP },
      ]);
      [seat] = await this.db
        .select()
        .from(familyMembers)
        .where(eq(familyMembers.tokenHash, hashToken(answer.token)));
      if (!seat) throw notFound(FAMILY_MESSAGES.inviteNotFound);
      if (seat.email !== email)
        throw new AppError('forbidden', { info: FAMILY_MESSAGES.inviteOtherAddress });
    } else {
      // Without the mailed token, only a verified address proves the invite is the caller's.
      if (!user.emailVerifiedAt) {
        throw new AppError('forbidden', { info: FAMILY_MESSAGES.verifyEmailFirst });
      }
      const open = await this.db
        .select()
        .from(familyMembers)
        .where(
          and(
            eq(familyMembers.email, email),
            isNull(familyMembers.acceptedAt),
            ...(answer?.invite_id ? [eq(familyMembers.id, answer.invite_id)] : []),
          ),
        )
        .orderBy(desc(familyMembers.invitedAt), desc(familyMembers.id));
      seat = open.find((row) => !row.declinedAt && !expiredAt(row, this.now())) ?? open[0];
      if (!seat) throw notFound(FAMILY_MESSAGES.inviteNotFound);
    }
    if (seat.acceptedAt) throw conflict(FAMILY_MESSAGES.alreadyAccepted);
    if (seat.declinedAt) throw conflict(FAMILY_MESSAGES.inviteNotFound);
    if (expiredAt(seat, this.now())) throw conflict(FAMILY_MESSAGES.inviteExpired);
    const [group] = await this.db
      .select()
      .from(familyGroups)
      .where(eq(familyGroups.id, seat.groupId));
    if (!group) throw notFound(FAMILY_MESSAGES.inviteNotFound);
    return { seat, group };
  }

  /**
   * Accepting starts family access at once. A member's own plan is never charged beside it:
   * a plan that would renew is canceled at its period end first (its paid time is kept),
   * and the page says so before the member accepts (docs/operations/billing.md).
   */
  async accept(request: FastifyRequest, user: UserRow, answer: FamilyAnswerRequest) {
    // One accept at a time per person: two at once would both find the own plan renewing,
    // and the one that lost the seat could not tell whose cancel to undo.
    return holdingSlot(
      this.app,
      {
        key: `family-accept:${user.id}`,
        userId: user.id,
        busy: () => conflict(FAMILY_MESSAGES.alreadyAccepted),
      },
      () => this.acceptNow(request, user, answer),
    );
  }

  private async acceptNow(request: FastifyRequest, user: UserRow, answer: FamilyAnswerRequest) {
    const { seat, group } = await this.answerable(request, user, answer);
    if (group.ownerId === user.id || (await ownedGroup(this.db, user.id))) {
      throw conflict(FAMILY_MESSAGES.alreadyInGroup);
    }
    if (await memberSeat(this.db, user.id)) throw conflict(FAMILY_MESSAGES.alreadyInGroup);
    const plan = await ownerPlan(this.db, group.ownerId);
    if (!sharesNow(plan, this.now())) throw conflict(FAMILY_MESSAGES.ownerNoAccess);
    const ownPlanCanceled = await ownPlanRenews(this.db, user.id);
    if (ownPlanCanceled) await subscriptionAction(this.app, user, 'cancel');
    const now = this.now();
    try {
      await this.db.transaction(async (tx) => {
        const [accepted] = await tx
          .update(familyMembers)
          .set({ acceptedAt: now, userId: user.id, tokenHash: null, declinedAt: null })
          .where(and(eq(familyMembers.id, seat.id), isNull(familyMembers.acceptedAt)))
          .returning();
        if (!accepted) throw conflict(FAMILY_MESSAGES.alreadyAccepted);
        await grantFamilyAccess(tx, user.id, group.id, now, memberAccessEnd(plan));
        await this.audit(tx, request, 'family.invite_accepted', user, group.id, {
          seat_id: seat.id,
          own_plan_canceled: ownPlanCanceled,
        });
      });
    } catch (error) {
      // Nothing was accepted (the seat taken meanwhile, or one accepted seat per person): the
      // plan canceled for it renews again, as it did before.
      if (ownPlanCanceled) await this.resumeOwnPlan(user);
      if (isUniqueViolation(error)) throw conflict(FAMILY_MESSAGES.alreadyInGroup);
      throw error;
    }
    await familyChanged(this.app, group.id, [group.ownerId, user.id]);
    return this.view(user);
  }

  private async resumeOwnPlan(user: UserRow): Promise<void> {
    try {
      await subscriptionAction(this.app, user, 'resume');
    } catch (error) {
      this.app.log.error({ err: error, userId: user.id }, 'a canceled own plan was not resumed');
    }
  }

  async decline(request: FastifyRequest, user: UserRow, answer: FamilyAnswerRequest) {
    const { seat, group } = await this.answerable(request, user, answer);
    await this.db.transaction(async (tx) => {
      // The link is spent; a resend by the owner issues a new one.
      await tx
        .update(familyMembers)
        .set({ declinedAt: this.now(), userId: user.id, tokenHash: null })
        .where(and(eq(familyMembers.id, seat.id), isNull(familyMembers.acceptedAt)));
      await this.audit(tx, request, 'family.invite_declined', user, group.id, {
        seat_id: seat.id,
      });
    });
    await familyChanged(this.app, group.id, [group.ownerId, user.id]);
    return this.view(user);
  }
}
