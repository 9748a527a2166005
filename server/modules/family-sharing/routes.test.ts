import { and, eq, isNotNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { decodeChallenge } from '#shared/challenge.ts';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import {
  familySharingEndpoints as e,
  FAMILY_MESSAGES,
  type FamilySharing,
} from '#shared/contracts/family-sharing.ts';
import { REALTIME_EVENTS } from '#shared/contracts/realtime.ts';
import {
  auditLog,
  entitlements,
  familyGroups,
  familyMembers,
  mailOutbox,
  subscriptions,
} from '../../db/schema/index.ts';
import { openShop } from '../../test/billing-kit.ts';
import { createTestApp } from '../../test/test-app.ts';
import { advanceTestClock } from '../../test/test-clock.ts';
import { sessionFor, signedInUser, type TestSession } from '../../test/test-sessions.ts';
import { createUser } from '../../test/test-users.ts';
import { accessOf } from '../billing/entitlement-sync.ts';
import { familySweep } from './family-sweep.ts';

const FAMILY_PLAN = 'Family, 1 year';

describe('family sharing', async () => {
  const { app } = await createTestApp();
  const shop = await openShop(app);
  const { call } = shop;
  const published: { channel: string; event: string }[] = [];
  const publish = app.realtime.publish.bind(app.realtime);
  app.realtime.publish = async (channel, event, data) => {
    published.push({ channel: String(channel), event });
    return publish(channel, event, data);
  };

  const now = () => app.payments.clock.now();
  const access = (session: TestSession) => accessOf(app.db, session.user.id, now());
  const view = async (session: TestSession): Promise<FamilySharing> => {
    const answer = await call(e.view, { cookie: session.cookie });
    expect(answer.status, answer.text).toBe(200);
    return answer.data.familySharing;
  };

  async function advanceDays(days: number) {
    const moved = await advanceTestClock(app, { days });
    expect(moved.statusCode).toBe(200);
    await app.queue.drain({ timeoutMs: 20_000 });
    await app.payments.clock.advance(0);
    await app.queue.drain({ timeoutMs: 20_000 });
  }

  /** A customer who bought the family plan and started a group. */
  async function familyOwner(): Promise<TestSession> {
    const owner = await signedInUser(app, { name: 'Olivia Owner', locale: 'nl' });
    const bought = await shop.buy(owner, { plan: FAMILY_PLAN });
    expect(bought.status, bought.text).toBe(200);
    const created = await call(e.create, { cookie: owner.cookie });
    expect(created.status, created.text).toBe(200);
    expect(created.data.familySharing.role).toBe('owner');
    return owner;
  }

  /** The invite mail's challenge (email and token) for `to`, newest first. */
  async function mailedInvite(to: string) {
    const mails = await app.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, to), eq(mailOutbox.template, 'family_invite')))
      .orderBy(mailOutbox.id);
    const last = mails.at(-1);
    if (!last) throw new Error(`no invite mailed to ${to}`);
    const text = JSON.stringify(last);
    const match = /familysharing\/invite\/verify\?challenge=([A-Za-z0-9_-]+)/.exec(text);
    if (!match?.[1]) throw new Error('the invite carries no link');
    const challenge = decodeChallenge(match[1]);
    return { mail: last, count: mails.length, challenge, link: match[0] };
  }

  async function invite(owner: TestSession, email: string) {
    const answer = await call(e.invite, { cookie: owner.cookie, body: { email } });
    expect(answer.status, answer.text).toBe(200);
    return answer.data.familySharing.users.find((u) => u.email === email.trim().toLowerCase());
  }

  it('starts a group only on a plan with family seats that gives access now', async () => {
    const nobody = await signedInUser(app);
    expect((await view(nobody)).role).toBe('none');
    expect((await view(nobody)).can_create).toBe(false);
    const refused = await call(e.create, { cookie: nobody.cookie });
    expect(refused.status).toBe(409);
    expect(refused.body.errors_info).toEqual([FAMILY_MESSAGES.notEligible]);

    const single = await signedInUser(app);
    await shop.buy(single, { plan: '1 month' });
    expect((await call(e.create, { cookie: single.cookie })).status).toBe(409);

    const owner = await signedInUser(app);
    await shop.buy(owner, { plan: FAMILY_PLAN });
    const before = await view(owner);
    expect(before).toMatchObject({ role: 'none', can_create: true, seats: 6 });
    const created = await call(e.create, { cookie: owner.cookie });
    expect(created.data.familySharing).toMatchObject({
      role: 'owner',
      seats: 6,
      seats_used: 0,
      owner: { id: owner.user.id },
    });
    expect(created.data.familySharing.users).toHaveLength(1);
    expect(created.data.familySharing.users[0]).toMatchObject({ owner: true, user_id: 0 });
    expect((await call(e.create, { cookie: owner.cookie })).body.errors_info).toEqual([
      FAMILY_MESSAGES.groupExists,
    ]);
    const audit = await app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'family.group_created'), eq(auditLog.actorId, owner.user.id)));
    expect(audit).toHaveLength(1);
  });

  it('invites by e-mail, mails the link in the right language, and the invitee accepts into access', async () => {
    const owner = await familyOwner();
    const invitee = await signedInUser(app, { locale: 'fr' });
    const seat = await invite(owner, ` ${invitee.user.email.toUpperCase()} `);
    expect(seat).toMatchObject({
      accepted_at: null,
      declined_at: null,
      expired_at: null,
      user: null,
    });
    const { mail, challenge, link } = await mailedInvite(invitee.user.email);
    expect(mail.subject).toContain('forfait famille');
    expect(link).toContain('familysharing/invite/verify');
    expect(challenge?.email).toBe(invitee.user.email);
    // The link's own address and token: no token is stored in the clear.
    const [row] = await app.db
      .select()
      .from(familyMembers)
      .where(eq(familyMembers.id, seat?.user_id ?? 0));
    expect(row?.tokenHash).not.toBe(challenge?.token);
    expect(published).toContainEqual({
      channel: `presence-system-events.${invitee.user.id}`,
      event: REALTIME_EVENTS.familySharingUpdated,
    });

    const invited = await view(invitee);
    expect(invited.role).toBe('invitee');
    expect(invited.invites[0]?.owner.id).toBe(owner.user.id);
    expect((await access(invitee)).active).toBe(false);

    published.length = 0;
    const accepted = await call(e.accept, {
      cookie: invitee.cookie,
      body: { token: challenge?.token },
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.data.familySharing).toMatchObject({
      role: 'member',
      owner: { id: owner.user.id },
    });
    const ledger = await access(invitee);
    expect(ledger).toMatchObject({ active: true, sources: ['family'] });
    expect(ledger.until).not.toBeNull();
    // Both sides are told.
    for (const who of [owner, invitee]) {
      expect(published).toContainEqual({
        channel: `presence-system-events.${who.user.id}`,
        event: REALTIME_EVENTS.familySharingUpdated,
      });
    }
    const ownerSide = await view(owner);
    expect(ownerSide.seats_used).toBe(1);
    expect(ownerSide.users.find((u) => u.user?.id === invitee.user.id)?.accepted_at).not.toBeNull();
    // Single use: the link is spent.
    const again = await call(e.accept, {
      cookie: invitee.cookie,
      body: { token: challenge?.token },
    });
    expect(again.status).toBe(404);
  });

  it('mails an address without an account in the owner’s language; they sign up and accept by the link', async () => {
    const owner = await familyOwner();
    const email = `new-${Date.now()}@example.com`;
    await invite(owner, email);
    const { mail, challenge } = await mailedInvite(email);
    expect(mail.subject).toContain('gezinsabonnement');
    // Signed up now, not verified yet: the mailed token proves the address.
    const fresh = await signedInUser(app, { email, emailVerifiedAt: null });
    expect((await view(fresh)).invites).toEqual([]);
    const withoutToken = await call(e.accept, { cookie: fresh.cookie });
    expect(withoutToken.status).toBe(403);
    expect(withoutToken.body.errors_info).toEqual([FAMILY_MESSAGES.verifyEmailFirst]);
    const accepted = await call(e.accept, {
      cookie: fresh.cookie,
      body: { token: challenge?.token },
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect((await access(fresh)).active).toBe(true);
  });

  it('refuses a link for another address, and answers from the family page by invite id', async () => {
    const owner = await familyOwner();
    const invitee = await signedInUser(app);
    const stranger = await signedInUser(app);
    await invite(owner, invitee.user.email);
    const { challenge } = await mailedInvite(invitee.user.email);
    const stolen = await call(e.accept, {
      cookie: stranger.cookie,
      body: { token: challenge?.token },
    });
    expect(stolen.status).toBe(403);
    expect(stolen.body.errors_info).toEqual([FAMILY_MESSAGES.inviteOtherAddress]);
    expect((await access(stranger)).active).toBe(false);
    // The stranger cannot answer by naming the invite either.
    const [inviteRow] = (await view(invitee)).invites;
    const named = await call(e.decline, {
      cookie: stranger.cookie,
      body: { invite_id: inviteRow?.invite_id },
    });
    expect(named.status).toBe(404);

    const declined = await call(e.decline, {
      cookie: invitee.cookie,
      body: { invite_id: inviteRow?.invite_id },
    });
    expect(declined.status, declined.text).toBe(200);
    expect(declined.data.familySharing.role).toBe('none');
    expect(declined.data.familySharing.invites[0]?.declined_at).not.toBeNull();
    const ownerSide = await view(owner);
    const seat = ownerSide.users.find((u) => u.email === invitee.user.email);
    expect(seat?.declined_at).not.toBeNull();
    expect(ownerSide.seats_used).toBe(0);
    // A declined invite cannot be accepted until it is resent.
    expect((await call(e.accept, { cookie: invitee.cookie })).status).toBe(409);

    // §4 resend clears the declined marker and mails a new link; the old one is dead.
    const resent = await call(e.resend, {
      cookie: owner.cookie,
      body: { user_id: seat?.user_id ?? 0 },
    });
    expect(resent.status, resent.text).toBe(200);
    const after = resent.data.familySharing.users.find((u) => u.email === invitee.user.email);
    expect(after).toMatchObject({ declined_at: null, expired_at: null });
    const second = await mailedInvite(invitee.user.email);
    expect(second.count).toBe(2);
    expect(second.challenge?.token).not.toBe(challenge?.token);
    expect((await call(e.accept, { cookie: invitee.cookie })).status).toBe(200);
    expect((await access(invitee)).active).toBe(true);
  });

  it('refuses inviting oneself, twice, someone in a group, a bad address, and beyond the seats', async () => {
    const owner = await familyOwner();
    const self = await call(e.invite, { cookie: owner.cookie, body: { email: owner.user.email } });
    expect(self.status).toBe(422);
    expect(self.body.errors_validation).toEqual({ email: [FAMILY_MESSAGES.inviteSelf] });
    const bad = await call(e.invite, { cookie: owner.cookie, body: { email: 'not-an-address' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors_validation as object)).toEqual(['email']);

    const other = await familyOwner();
    const taken = await call(e.invite, { cookie: owner.cookie, body: { email: other.user.email } });
    expect(taken.body.errors_validation).toEqual({ email: [FAMILY_MESSAGES.inviteeInGroup] });

    for (let seat = 0; seat < 6; seat += 1)
      await invite(owner, `seat${seat}-${Date.now()}@example.com`);
    const twice = await call(e.invite, {
      cookie: owner.cookie,
      body: { email: (await view(owner)).users[1]?.email ?? '' },
    });
    expect(twice.body.errors_validation).toEqual({ email: [FAMILY_MESSAGES.alreadyInvited] });
    const full = await call(e.invite, {
      cookie: owner.cookie,
      body: { email: 'seven@example.com' },
    });
    expect(full.status).toBe(422);
    expect(full.body.errors_validation).toEqual({ email: [FAMILY_MESSAGES.seatsFull] });
    expect((await view(owner)).seats_used).toBe(6);
  });

  it('lets only the owner invite, resend and remove, and only their own group’s seats', async () => {
    const owner = await familyOwner();
    const other = await familyOwner();
    const member = await signedInUser(app);
    const seat = await invite(owner, member.user.email);
    await call(e.accept, { cookie: member.cookie });

    const notOwner = await call(e.invite, {
      cookie: member.cookie,
      body: { email: 'x@example.com' },
    });
    expect(notOwner.status).toBe(409);
    expect(notOwner.body.errors_info).toEqual([FAMILY_MESSAGES.notOwner]);
    for (const endpoint of [e.remove, e.resend]) {
      const foreign = await call(endpoint, {
        cookie: other.cookie,
        body: { user_id: seat?.user_id ?? 0 },
      });
      expect(foreign.status).toBe(404);
      const byMember = await call(endpoint, {
        cookie: member.cookie,
        body: { user_id: seat?.user_id ?? 0 },
      });
      expect(byMember.status).toBe(409);
    }
    // The owner holds no seat: 0 names nothing.
    expect((await call(e.remove, { cookie: owner.cookie, body: { user_id: 0 } })).status).toBe(422);
    expect((await access(member)).active).toBe(true);
    const resendMember = await call(e.resend, {
      cookie: owner.cookie,
      body: { user_id: seat?.user_id ?? 0 },
    });
    expect(resendMember.body.errors_validation).toEqual({
      user_id: [FAMILY_MESSAGES.alreadyAccepted],
    });
    expect((await call(e.leave, { cookie: owner.cookie })).status).toBe(409);
  });

  it('ends access when the owner removes a member, and when a member leaves', async () => {
    const owner = await familyOwner();
    const removed = await signedInUser(app);
    const leaving = await signedInUser(app);
    const removedSeat = await invite(owner, removed.user.email);
    await invite(owner, leaving.user.email);
    await call(e.accept, { cookie: removed.cookie });
    await call(e.accept, { cookie: leaving.cookie });
    expect((await access(removed)).active).toBe(true);

    published.length = 0;
    const answer = await call(e.remove, {
      cookie: owner.cookie,
      body: { user_id: removedSeat?.user_id ?? 0 },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.data.familySharing.users.some((u) => u.email === removed.user.email)).toBe(false);
    expect((await access(removed)).active).toBe(false);
    expect((await view(removed)).role).toBe('none');
    expect(published).toContainEqual({
      channel: `presence-system-events.${removed.user.id}`,
      event: REALTIME_EVENTS.familySharingUpdated,
    });
    // The ledger keeps the story: the row is ended, not deleted.
    const rows = await app.db
      .select()
      .from(entitlements)
      .where(and(eq(entitlements.userId, removed.user.id), eq(entitlements.source, 'family')));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.endsAt?.getTime()).toBeLessThanOrEqual(now().getTime());

    const left = await call(e.leave, { cookie: leaving.cookie });
    expect(left.status, left.text).toBe(200);
    expect(left.data.familySharing.role).toBe('none');
    expect((await access(leaving)).active).toBe(false);
    expect((await view(owner)).seats_used).toBe(0);
    const actions = await app.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.subjectId, String((await view(owner)).group_id)));
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        'family.member_removed',
        'family.member_left',
        'family.invite_accepted',
      ]),
    );
  });

  it('withdraws an invite (the owner) and its link stops working', async () => {
    const owner = await familyOwner();
    const email = `withdrawn-${Date.now()}@example.com`;
    const seat = await invite(owner, email);
    const { challenge } = await mailedInvite(email);
    const gone = await call(e.remove, {
      cookie: owner.cookie,
      body: { user_id: seat?.user_id ?? 0 },
    });
    expect(gone.status).toBe(200);
    const late = await signedInUser(app, { email });
    expect(
      (await call(e.accept, { cookie: late.cookie, body: { token: challenge?.token } })).status,
    ).toBe(404);
  });

  it('never charges a member twice: accepting stops their own renewing plan at its period end', async () => {
    const owner = await familyOwner();
    const payer = await signedInUser(app);
    await shop.buy(payer, { plan: '1 month' });
    await invite(owner, payer.user.email);
    const before = await view(payer);
    expect(before.own_plan_renews).toBe(true);
    const accepted = await call(e.accept, { cookie: payer.cookie });
    expect(accepted.status, accepted.text).toBe(200);
    const [own] = await app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, payer.user.id));
    expect(own?.cancelAtPeriodEnd).toBe(true);
    expect(own?.endedAt).toBeNull();
    // They keep the paid month beside family access.
    expect((await access(payer)).sources.sort()).toEqual(['family', 'subscription']);
    const [audit] = await app.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'family.invite_accepted'), eq(auditLog.actorId, payer.user.id)),
      );
    expect(audit?.data).toMatchObject({ own_plan_canceled: true });
  });

  it('accepts one of two invites answered at once; the own plan stays canceled for the one', async () => {
    const payer = await signedInUser(app);
    await shop.buy(payer, { plan: '1 month' });
    for (const owner of [await familyOwner(), await familyOwner()]) {
      await invite(owner, payer.user.email);
    }
    const invites = (await view(payer)).invites.map((open) => open.invite_id);
    expect(invites).toHaveLength(2);
    const answers = await Promise.all(
      invites.map((invite_id) => call(e.accept, { cookie: payer.cookie, body: { invite_id } })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const refused = answers.find((answer) => answer.status === 409);
    expect([[FAMILY_MESSAGES.alreadyAccepted], [FAMILY_MESSAGES.alreadyInGroup]]).toContainEqual(
      refused?.body.errors_info,
    );
    const seats = await app.db
      .select()
      .from(familyMembers)
      .where(and(eq(familyMembers.userId, payer.user.id), isNotNull(familyMembers.acceptedAt)));
    expect(seats).toHaveLength(1);
    const [own] = await app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, payer.user.id));
    expect(own?.cancelAtPeriodEnd).toBe(true);
    // The other invite can still be answered later: leaving and accepting it works.
    expect((await call(e.leave, { cookie: payer.cookie })).status).toBe(200);
    const other = (await view(payer)).invites.find((open) => !open.declined_at)?.invite_id;
    const second = await call(e.accept, { cookie: payer.cookie, body: { invite_id: other } });
    expect(second.status, second.text).toBe(200);
  });

  it('expires an invite after 7 days; a resend opens it again', async () => {
    const owner = await familyOwner();
    const invitee = await signedInUser(app);
    const seat = await invite(owner, invitee.user.email);
    const { challenge } = await mailedInvite(invitee.user.email);
    await advanceDays(8);
    const ownerSide = await view(owner);
    expect(ownerSide.users.find((u) => u.user_id === seat?.user_id)?.expired_at).not.toBeNull();
    expect(ownerSide.seats_used).toBe(0);
    const [row] = await app.db
      .select()
      .from(familyMembers)
      .where(eq(familyMembers.id, seat?.user_id ?? 0));
    expect(row?.expiredAt).not.toBeNull();
    const late = await call(e.accept, {
      cookie: invitee.cookie,
      body: { token: challenge?.token },
    });
    expect(late.status).toBe(409);
    expect(late.body.errors_info).toEqual([FAMILY_MESSAGES.inviteExpired]);

    const resent = await call(e.resend, {
      cookie: owner.cookie,
      body: { user_id: seat?.user_id ?? 0 },
    });
    expect(
      resent.data.familySharing.users.find((u) => u.user_id === seat?.user_id)?.expired_at,
    ).toBeNull();
    const { challenge: fresh } = await mailedInvite(invitee.user.email);
    expect(
      (await call(e.accept, { cookie: invitee.cookie, body: { token: fresh?.token } })).status,
    ).toBe(200);
  });

  it('rate-limits resends of one invite', async () => {
    const owner = await familyOwner();
    const seat = await invite(owner, `often-${Date.now()}@example.com`);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push(
        (await call(e.resend, { cookie: owner.cookie, body: { user_id: seat?.user_id ?? 0 } }))
          .status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("ends members' access when the owner's plan ends, and keeps it in step on renewal", async () => {
    const owner = await familyOwner();
    const member = await signedInUser(app);
    await invite(owner, member.user.email);
    await call(e.accept, { cookie: member.cookie });
    const [ownerAccess] = await app.db
      .select()
      .from(entitlements)
      .where(and(eq(entitlements.userId, owner.user.id), eq(entitlements.source, 'subscription')));
    const memberAccess = await access(member);
    expect(memberAccess.until?.getTime()).toBe(ownerAccess?.endsAt?.getTime());

    const canceled = await call(billingEndpoints.cancel, { cookie: owner.cookie });
    expect(canceled.status, canceled.text).toBe(200);
    expect((await access(member)).active).toBe(true);
    published.length = 0;
    await advanceDays(370);
    expect((await access(owner)).active).toBe(false);
    expect((await access(member)).active).toBe(false);
    expect((await view(member)).role).toBe('member');
    expect((await view(owner)).seats).toBe(0);
    expect(published).toContainEqual({
      channel: `presence-system-events.${member.user.id}`,
      event: REALTIME_EVENTS.familySharingUpdated,
    });
    const refused = await call(e.invite, {
      cookie: owner.cookie,
      body: { email: 'late@example.com' },
    });
    expect(refused.body.errors_info).toEqual([FAMILY_MESSAGES.ownerNoAccess]);
    // A year of every other test's renewals passes on the clock first.
  }, 120_000);

  it("ends a member's access when their seat is gone with the group (the owner's account deleted)", async () => {
    const owner = await familyOwner();
    const member = await signedInUser(app);
    await invite(owner, member.user.email);
    await call(e.accept, { cookie: member.cookie });
    expect((await access(member)).active).toBe(true);
    // What deleting the owner's account does to the family (its cascade), without racing
    // the billing jobs over the owner's invoices.
    await app.db.delete(familyGroups).where(eq(familyGroups.ownerId, owner.user.id));
    await familySweep(app);
    expect((await access(member)).active).toBe(false);
    expect((await view(member)).role).toBe('none');
  });

  it('answers 404 for every call while the family_sharing flag is off', async () => {
    const { app: off } = await createTestApp({ FEATURES: 'billing,users,auth,logging,referral' });
    const user = await createUser(off.db);
    const session = await sessionFor(off, user);
    const offShop = await openShop(off);
    for (const endpoint of Object.values(e)) {
      const answer = await offShop.call(endpoint as typeof e.view, { cookie: session.cookie });
      expect(answer.status, endpoint.url).toBe(404);
    }
  }, 60_000);

  it('refuses signed-out callers', async () => {
    expect((await call(e.view)).status).toBe(401);
    expect((await call(e.leave)).status).toBe(401);
  });
});
