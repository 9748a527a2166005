import { and, count, eq, gt, isNull } from 'drizzle-orm';
import type { ReferralView } from '#shared/contracts/referral.ts';
import type { Database } from '../../db/client.ts';
import { entitlements, referrals } from '../../db/schema/index.ts';
import { codeOf } from './referral-codes.ts';

const DAY_MS = 86_400_000;

export async function referralsCount(db: Database, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(referrals)
    .where(eq(referrals.referrerId, userId));
  return row?.n ?? 0;
}

/**
 * Whole days of bonus access still ahead, read from the ledger (whatever earned them: a
 * referral or a staff grant). A day begun counts as a day, so a grant of 30 reads 30.
 */
export async function bonusDaysLeft(db: Database, userId: number, now: Date): Promise<number> {
  const rows = await db
    .select({ startsAt: entitlements.startsAt, endsAt: entitlements.endsAt })
    .from(entitlements)
    .where(
      and(
        eq(entitlements.userId, userId),
        eq(entitlements.source, 'bonus'),
        isNull(entitlements.revokedAt),
        gt(entitlements.endsAt, now),
      ),
    );
  const ms = rows.reduce((sum, row) => {
    if (!row.endsAt) return sum;
    const from = row.startsAt > now ? row.startsAt : now;
    return sum + Math.max(0, row.endsAt.getTime() - from.getTime());
  }, 0);
  return Math.ceil(ms / DAY_MS);
}

export async function referralViewOf(
  db: Database,
  userId: number,
  now: Date,
  bonusDaysPerFriend: number,
): Promise<ReferralView> {
  const [code, referralsTotal, days] = await Promise.all([
    codeOf(db, userId),
    referralsCount(db, userId),
    bonusDaysLeft(db, userId, now),
  ]);
  return {
    code,
    referrals_count: referralsTotal,
    bonus_days_left: days,
    bonus_days_per_friend: bonusDaysPerFriend,
  };
}
