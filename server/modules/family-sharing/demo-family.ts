import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { familyGroups, familyMembers, users } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { checkout } from '../billing/checkout-service.ts';
import { demoPlan } from '../billing/demo-catalog.ts';
import { hashPassword } from '../identity/password.ts';
import { hashToken, newToken } from '../identity/secrets.ts';
import { grantFamilyAccess, ownerPlan } from './family-access.ts';

/** The demo family's owner (README): signs in to see the owner's page. */
export const DEMO_FAMILY_OWNER = {
  email: 'family@example.com',
  username: 'family',
  name: 'Frances Family',
  password: 'Family#2024pass',
} as const;
const DEMO_CUSTOMER = 'customer@example.com';
const DEMO_MEMBER = 'sofia.smith.5@example.net';
const DAY_MS = 86_400_000;

async function sandboxToken(app: App, expYear: number): Promise<string> {
  const answer = await app.inject({
    method: 'POST',
    url: '/sandbox/v1/tokens',
    payload: {
      number: '4242424242424242',
      exp_month: 6,
      exp_year: expYear,
      cvc: '123',
      name: 'Frances Family',
    },
  });
  if (answer.statusCode !== 200) throw new Error(`demo card refused: ${answer.body}`);
  return (answer.json() as { id: string }).id;
}

/**
 * On `npm start`: an owner on the family plan bought through the sandbox, one member (a
 * demo-history customer) with family access, and an open invite to the demo customer, who
 * so sees an invite to answer on their family page. Written once.
 */
export async function seedDemoFamily(app: App): Promise<void> {
  if (app.payments.forService(1)?.name !== 'sandbox') return;
  const [existing] = await app.db
    .select()
    .from(users)
    .where(eq(users.email, DEMO_FAMILY_OWNER.email));
  if (existing) return;
  const now = app.payments.clock.now();
  const [owner] = await app.db
    .insert(users)
    .values({
      role: 'USER',
      email: DEMO_FAMILY_OWNER.email,
      username: DEMO_FAMILY_OWNER.username,
      name: DEMO_FAMILY_OWNER.name,
      passwordHash: await hashPassword(DEMO_FAMILY_OWNER.password),
      emailVerifiedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (!owner) return;
  const plan = await demoPlan(app.db, 'USD', 'Family, 1 year');
  await checkout(
    app,
    app.catalog,
    owner,
    {
      product_id: plan.id,
      addon_ids: [],
      payment: { service_id: 1, token: await sandboxToken(app, now.getUTCFullYear() + 3) },
      billing_address: {
        name: DEMO_FAMILY_OWNER.name,
        company: '',
        line1: 'Prinsengracht 263',
        line2: '',
        city: 'Amsterdam',
        postal_code: '1016 GV',
        region: '',
        country: 'NL',
        vat_id: '',
      },
      idempotency_key: randomUUID(),
      lang: 'en',
    },
    'new',
  );
  const sharing = await ownerPlan(app.db, owner.id);
  const [member] = await app.db.select().from(users).where(eq(users.email, DEMO_MEMBER));
  await app.db.transaction(async (tx) => {
    const [group] = await tx.insert(familyGroups).values({ ownerId: owner.id }).returning();
    if (!group) return;
    const week = new Date(now.getTime() + 7 * DAY_MS);
    if (member) {
      await tx.insert(familyMembers).values({
        groupId: group.id,
        email: member.email,
        userId: member.id,
        invitedAt: new Date(now.getTime() - 2 * DAY_MS),
        inviteExpiresAt: new Date(now.getTime() + 5 * DAY_MS),
        acceptedAt: new Date(now.getTime() - DAY_MS),
      });
      await grantFamilyAccess(tx, member.id, group.id, now, sharing?.access?.endsAt ?? null);
    }
    // Nobody holds these links: the demo customer answers from the family page.
    await tx.insert(familyMembers).values([
      {
        groupId: group.id,
        email: DEMO_CUSTOMER,
        tokenHash: hashToken(newToken()),
        invitedAt: now,
        inviteExpiresAt: week,
      },
      {
        groupId: group.id,
        email: 'grandpa@example.org',
        tokenHash: hashToken(newToken()),
        invitedAt: new Date(now.getTime() - 9 * DAY_MS),
        inviteExpiresAt: new Date(now.getTime() - 2 * DAY_MS),
        expiredAt: new Date(now.getTime() - 2 * DAY_MS),
      },
    ]);
  });
}
