import { eq } from 'drizzle-orm';
import { referrals, users } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { codeOf } from './referral-codes.ts';
import { sendGrant } from './referral-rewards.ts';

/** The demo customer of the README (server/db/seed.ts). */
const DEMO_CUSTOMER = 'customer@example.com';
const DAY_MS = 86_400_000;

/** Friends who joined through the demo customer's link; the first two have paid since. */
const FRIENDS = [
  { handle: 'robin.referred', name: 'Robin Referred', joinedDaysAgo: 21, paid: true },
  { handle: 'sam.referred', name: 'Sam Referred', joinedDaysAgo: 9, paid: true },
  { handle: 'kim.referred', name: 'Kim Referred', joinedDaysAgo: 2, paid: false },
] as const;

/**
 * On `npm start` the refer-a-friend page and the dashboard's referral card have figures: the
 * demo customer has a link, three referrals, and bonus days for the two who paid. The days
 * go through the same grant jobs as a real reward (bonus service 5 and the ledger); the
 * customer's paid plan stays the current subscription, bonus days run beside it.
 */
export async function seedDemoReferrals(app: App): Promise<void> {
  const [customer] = await app.db.select().from(users).where(eq(users.email, DEMO_CUSTOMER));
  if (!customer) return;
  await codeOf(app.db, customer.id);
  const [known] = await app.db
    .select({ id: referrals.id })
    .from(referrals)
    .where(eq(referrals.referrerId, customer.id))
    .limit(1);
  if (known) return;
  const now = app.payments.clock.now().getTime();
  for (const friend of FRIENDS) {
    const joinedAt = new Date(now - friend.joinedDaysAgo * DAY_MS);
    await app.db
      .insert(users)
      .values({
        role: 'USER',
        email: `${friend.handle}@example.org`,
        username: friend.handle.replace('.', '_'),
        name: friend.name,
        emailVerifiedAt: joinedAt,
        createdAt: joinedAt,
      })
      .onConflictDoNothing();
    const [row] = await app.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, `${friend.handle}@example.org`));
    if (!row) continue;
    const [referral] = await app.db
      .insert(referrals)
      .values({
        referrerId: customer.id,
        referredId: row.id,
        joinedAt,
        ...(friend.paid
          ? {
              rewardedAt: new Date(joinedAt.getTime() + DAY_MS),
              rewardDays: app.config.referralBonusDays,
            }
          : {}),
      })
      .onConflictDoNothing()
      .returning();
    if (referral?.rewardedAt) {
      await sendGrant(app, { referralId: referral.id, side: 'referrer' });
      await sendGrant(app, { referralId: referral.id, side: 'referred' });
    }
  }
}
