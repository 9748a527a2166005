import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { dashboardEndpoints } from '#shared/contracts/dashboard.ts';
import {
  entitlements,
  familyGroups,
  familyMembers,
  sessions,
  type UserRow,
} from '../../db/schema/index.ts';
import { openShop } from '../../test/billing-kit.ts';
import { createTestApp } from '../../test/test-app.ts';
import { sessionFor, signedInUser } from '../../test/test-sessions.ts';
import { createUser } from '../../test/test-users.ts';
import { grantBonusDays } from '../billing/bonus-days.ts';

const DAY_MS = 86_400_000;
const view = dashboardEndpoints.view;

describe('customer dashboard (§2 /dashboard)', async () => {
  const { app } = await createTestApp();
  afterAll(() => app.close());
  const shop = await openShop(app);
  const { call } = shop;
  const now = () => app.payments.clock.now();
  const days = (n: number) => new Date(now().getTime() + n * DAY_MS);

  const dashboard = async (cookie: string) => {
    const answer = await call(view, { cookie });
    expect(answer.status, answer.text).toBe(200);
    return answer.data;
  };

  /** A family group of `owner` with `member` accepted, and the seat's ledger row. */
  async function familySeat(owner: UserRow, member: UserRow, sourceRef?: string) {
    const [group] = await app.db.insert(familyGroups).values({ ownerId: owner.id }).returning();
    if (!group) throw new Error('no group');
    await app.db.insert(familyMembers).values({
      groupId: group.id,
      email: member.email,
      userId: member.id,
      inviteExpiresAt: days(7),
      acceptedAt: now(),
    });
    await app.db.insert(entitlements).values({
      userId: member.id,
      source: 'family',
      sourceRef: sourceRef ?? `family:${group.id}`,
      startsAt: now(),
      endsAt: null,
    });
    return group;
  }

  it('shows a new customer no access and the one browser they are signed in on', async () => {
    const { cookie } = await signedInUser(app);
    expect(await dashboard(cookie)).toEqual({
      access: { active: false, until: null, sources: [] },
      devices_count: 1,
    });
  });

  it('shows the own plan after a real purchase, until the end of the paid period', async () => {
    const buyer = await signedInUser(app);
    const bought = await shop.buy(buyer);
    expect(bought.status, bought.text).toBe(200);
    const detail = (await call(billingEndpoints.subscription, { cookie: buyer.cookie })).data;
    const periodEnd = detail.subscription.current_period_end;
    expect(periodEnd).toBeTruthy();
    const { access } = await dashboard(buyer.cookie);
    expect(access.active).toBe(true);
    expect(access.sources).toEqual([{ source: 'subscription', until: periodEnd }]);
    expect(new Date(access.until ?? 0).getTime()).toBe(new Date(periodEnd ?? 0).getTime());
  });

  it('shows bonus days granted through the bonus service', async () => {
    const { user, cookie } = await signedInUser(app);
    await grantBonusDays(app, user, { days: 30, description: '30 bonus days', actorId: null });
    const { access } = await dashboard(cookie);
    expect(access.active).toBe(true);
    expect(access.sources).toHaveLength(1);
    expect(access.sources[0]?.source).toBe('bonus');
    const until = new Date(access.sources[0]?.until ?? 0).getTime();
    expect(until - now().getTime()).toBeGreaterThan(29 * DAY_MS);
  });

  it('shows a family seat with the owner who shares it, without an end', async () => {
    const owner = await createUser(app.db, { name: 'Olga Owner' });
    const member = await signedInUser(app);
    await familySeat(owner, member.user);
    expect((await dashboard(member.cookie)).access).toEqual({
      active: true,
      until: null,
      sources: [{ source: 'family', until: null, from: 'Olga Owner' }],
    });
  });

  it('names an owner without a name by e-mail, and finds the group by membership', async () => {
    const owner = await createUser(app.db, { name: null });
    const member = await signedInUser(app);
    await familySeat(owner, member.user, 'family:not-a-group-id');
    const { access } = await dashboard(member.cookie);
    expect(access.sources).toEqual([{ source: 'family', until: null, from: owner.email }]);
  });

  it('shows a staff grant, and several sources in order: own plan, family, bonus, manual', async () => {
    const owner = await createUser(app.db, { name: 'Fam Owner' });
    const customer = await signedInUser(app);
    const grantEnd = days(10);
    await app.db.insert(entitlements).values({
      userId: customer.user.id,
      source: 'manual',
      sourceRef: 'staff:1',
      startsAt: days(-1),
      endsAt: grantEnd,
    });
    expect((await dashboard(customer.cookie)).access.sources).toEqual([
      { source: 'manual', until: grantEnd.toISOString() },
    ]);
    // Bought first: a running bonus run is upgraded, not bought beside (§4 bonus upgrade).
    expect(await shop.buy(customer)).toMatchObject({ status: 200 });
    await grantBonusDays(app, customer.user, { days: 5, description: '5 days', actorId: null });
    await familySeat(owner, customer.user);
    const { access } = await dashboard(customer.cookie);
    expect(access.sources.map((s) => s.source)).toEqual([
      'subscription',
      'family',
      'bonus',
      'manual',
    ]);
    // A family seat has no end, so neither has the access as a whole.
    expect(access).toMatchObject({ active: true, until: null });
  });

  it('leaves out ended, revoked and not yet started rows', async () => {
    const { user, cookie } = await signedInUser(app);
    const monthOn = days(30);
    const row = (sourceRef: string, startsAt: Date, endsAt: Date | null, revokedAt?: Date) => ({
      userId: user.id,
      source: 'manual' as const,
      sourceRef,
      startsAt,
      endsAt,
      revokedAt: revokedAt ?? null,
    });
    await app.db
      .insert(entitlements)
      .values([
        row('staff:ended', days(-30), days(-1)),
        row('staff:revoked', days(-1), monthOn, days(-0.5)),
        row('staff:later', days(2), days(30)),
      ]);
    expect((await dashboard(cookie)).access).toEqual({ active: false, until: null, sources: [] });
    // The same row once it is live again is shown.
    await app.db
      .update(entitlements)
      .set({ revokedAt: null })
      .where(eq(entitlements.sourceRef, 'staff:revoked'));
    expect((await dashboard(cookie)).access.sources).toEqual([
      { source: 'manual', until: monthOn.toISOString() },
    ]);
  });

  it('shows a refunded purchase as no access (the ledger revokes it)', async () => {
    const buyer = await signedInUser(app);
    expect(await shop.buy(buyer)).toMatchObject({ status: 200 });
    await app.db
      .update(entitlements)
      .set({ revokedAt: now() })
      .where(eq(entitlements.userId, buyer.user.id));
    expect((await dashboard(buyer.cookie)).access.active).toBe(false);
  });

  it('counts the live signed-in browsers, not expired or idle ones', async () => {
    const first = await signedInUser(app);
    await sessionFor(app, first.user, '192.0.2.11');
    const old = await sessionFor(app, first.user, '192.0.2.12');
    expect((await dashboard(first.cookie)).devices_count).toBe(3);
    await app.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, old.sessionId));
    expect((await dashboard(first.cookie)).devices_count).toBe(2);
  });

  it("answers only about the caller: another customer's access never shows", async () => {
    const rich = await signedInUser(app);
    await grantBonusDays(app, rich.user, { days: 3, description: '3 days', actorId: null });
    const other = await signedInUser(app);
    expect((await dashboard(other.cookie)).access.sources).toEqual([]);
  });

  it('refuses visitors, deactivated accounts and machines; staff see their own, empty', async () => {
    expect((await call(view)).status).toBe(401);
    const deactivated = await signedInUser(app, { deleteAt: days(30) });
    expect((await call(view, { cookie: deactivated.cookie })).status).toBe(403);
    const machine = await signedInUser(app, { role: 'VPN_SERVER' });
    expect((await call(view, { cookie: machine.cookie })).status).toBe(403);
    for (const role of ['ADMIN', 'AUTHOR'] as const) {
      const staff = await signedInUser(app, { role });
      expect((await dashboard(staff.cookie)).access).toEqual({
        active: false,
        until: null,
        sources: [],
      });
    }
  });
});
