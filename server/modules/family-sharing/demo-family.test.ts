import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { familySharingEndpoints as e } from '#shared/contracts/family-sharing.ts';
import { users } from '../../db/schema/index.ts';
import { seedDemoData } from '../../db/seed.ts';
import { endpointClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { sessionFor } from '../../test/test-sessions.ts';
import { accessOf } from '../billing/entitlement-sync.ts';
import { DEMO_FAMILY_OWNER, seedDemoFamily } from './demo-family.ts';

describe('demo family', async () => {
  const { app } = await createTestApp();
  const call = endpointClient(app);
  const byEmail = async (email: string) => {
    const [row] = await app.db.select().from(users).where(eq(users.email, email));
    if (!row) throw new Error(`no ${email}`);
    return row;
  };

  it('gives the owner a family with a member and invites, and the demo customer an invite; once', async () => {
    await seedDemoData(app.db);
    await seedDemoFamily(app);
    await seedDemoFamily(app);
    const owner = await sessionFor(app, await byEmail(DEMO_FAMILY_OWNER.email));
    const family = (await call(e.view, { cookie: owner.cookie })).data.familySharing;
    expect(family).toMatchObject({ role: 'owner', seats: 6, seats_used: 2 });
    expect(
      family.users.map((u) => (u.accepted_at ? 'member' : u.expired_at ? 'expired' : 'invited')),
    ).toEqual(['member', 'expired', 'member', 'invited']);
    const member = family.users.find((u) => !u.owner && u.accepted_at);
    expect(
      (await accessOf(app.db, member?.user?.id ?? 0, app.payments.clock.now())).sources,
    ).toEqual(['family']);

    const customer = await sessionFor(app, await byEmail('customer@example.com'));
    const invited = (await call(e.view, { cookie: customer.cookie })).data.familySharing;
    expect(invited.role).toBe('invitee');
    expect(invited.invites[0]?.owner.email).toBe(DEMO_FAMILY_OWNER.email);
  });
});
