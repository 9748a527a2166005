import { and, asc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  invoiceLines,
  invoices,
  type ReferralRow,
  referrals,
  users,
} from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import type { Applied } from '../billing/apply-snapshots.ts';
import { grantBonusDays } from '../billing/bonus-days.ts';
import { holdingSlot } from '../billing/idempotent.ts';
import { announceReferral } from './referral-events.ts';

// Both sides of a referral earn bonus days when the referred customer's first payment
// succeeds. Money-like credit must move once, whatever is delivered twice or lost:
// - the reward is claimed in one transaction (`rewarded_at` set where it was null), which
//   also enqueues one durable grant job per side, so a claim never exists without its jobs;
// - a grant job is safe to run again: the bonus invoice line it writes names the referral
//   and the side, and a job that finds that line grants nothing, while a lease per side keeps
//   two deliveries of the same job (two processes) from both getting past that check;
// - a sweep claims paid-but-unclaimed referrals (a crash between a payment's commit and its
//   listener) and re-sends grant jobs that ran out of retries.

export const REWARD_QUEUE = 'referral.reward';
export const SWEEP_QUEUE = 'referral.sweep';

export type RewardSide = 'referrer' | 'referred';
const SIDES: readonly RewardSide[] = ['referrer', 'referred'];

export interface RewardJob {
  referralId: number;
  side: RewardSide;
}

/** The sweep leaves a fresh claim to its own jobs (and their retries) this long. */
const GRANT_PATIENCE_MS = 15 * 60_000;
/** How far back the sweep looks for a side never granted. */
const GRANT_LOOKBACK_MS = 7 * 86_400_000;

/** The grant's invoice line: what the customer reads, and the marker of a side granted. */
export function rewardLine(referral: Pick<ReferralRow, 'id' | 'rewardDays'>, side: RewardSide) {
  const days = referral.rewardDays ?? 0;
  return side === 'referrer'
    ? `${days} bonus days: a friend you referred made their first payment (referral ${referral.id})`
    : `${days} bonus days: you joined through a friend's link (referral ${referral.id})`;
}

/** A payment that earns the reward: a paid invoice with money in it, not a bonus grant. */
function earnsReward(applied: Applied): { userId: number; invoiceId: number } | null {
  const invoice = applied.invoice?.row;
  if (invoice?.status !== 'paid' || invoice.total <= 0) return null;
  if (invoice.gateway === 'bonus' || !invoice.userId) return null;
  return { userId: invoice.userId, invoiceId: invoice.id };
}

/** The billing listener (onBillingApplied): a paid invoice may claim a referral's reward. */
export async function rewardOnPayment(app: App, applied: Applied): Promise<void> {
  const paid = earnsReward(applied);
  if (paid) await claimReward(app, paid.userId, paid.invoiceId);
}

/**
 * Claims the reward of the referral of `referredId`, if it has one not yet claimed: answers
 * whether this call claimed it. A replayed or duplicate paid event finds it claimed.
 */
export async function claimReward(app: App, referredId: number, invoiceId: number) {
  const claimed = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(referrals)
      .set({
        rewardedAt: app.payments.clock.now(),
        rewardInvoiceId: invoiceId,
        rewardDays: app.config.referralBonusDays,
      })
      .where(and(eq(referrals.referredId, referredId), isNull(referrals.rewardedAt)))
      .returning();
    if (!row) return null;
    for (const side of SIDES) await sendGrant(app, { referralId: row.id, side }, tx);
    return row;
  });
  if (claimed) {
    // Committed: the grants are there to be taken now, not at the workers' next poll.
    app.queue.wake(REWARD_QUEUE);
    await announceReferral(app, claimed.referrerId);
  }
  return claimed !== null;
}

export async function sendGrant(app: App, job: RewardJob, tx?: Database): Promise<void> {
  await app.queue.send(REWARD_QUEUE, job, {
    singletonKey: `${job.referralId}:${job.side}`,
    // A grant waits while the customer's own order holds their billing slot: retried soon.
    retryLimit: 12,
    retryDelaySeconds: 2,
    ...(tx ? { transaction: tx } : {}),
  });
}

/** Whether the side's grant is already on the books (its bonus invoice line). */
async function granted(db: Database, userId: number, description: string): Promise<boolean> {
  const [found] = await db
    .select({ id: invoiceLines.id })
    .from(invoiceLines)
    .innerJoin(invoices, eq(invoices.id, invoiceLines.invoiceId))
    .where(
      and(
        eq(invoices.userId, userId),
        eq(invoices.gateway, 'bonus'),
        eq(invoiceLines.description, description),
      ),
    )
    .limit(1);
  return found !== undefined;
}

/** The grant job: one side's bonus days, once. */
export async function grantSide(app: App, job: RewardJob): Promise<void> {
  const [referral] = await app.db.select().from(referrals).where(eq(referrals.id, job.referralId));
  if (!referral?.rewardedAt || !referral.rewardDays) return;
  const userId = job.side === 'referrer' ? referral.referrerId : referral.referredId;
  const [user] = await app.db.select().from(users).where(eq(users.id, userId));
  if (!user) return;
  const description = rewardLine(referral, job.side);
  const slot = {
    key: `referral-grant:${referral.id}:${job.side}`,
    userId,
    // Thrown, the job is retried once the other holder is done.
    busy: () => new Error(`referral grant ${referral.id}:${job.side} is being granted elsewhere`),
  };
  await holdingSlot(app, slot, async () => {
    if (await granted(app.db, userId, description)) return;
    await grantBonusDays(app, user, { days: referral.rewardDays ?? 0, description, actorId: null });
  });
  await announceReferral(app, referral.referrerId);
}

/**
 * Catches what a crash or exhausted retries left: referrals whose customer paid but whose
 * reward was never claimed, and claimed rewards a side of which was never granted.
 */
export async function referralSweep(app: App): Promise<void> {
  const unclaimed = await app.db
    .select({ referredId: referrals.referredId, invoiceId: sql<number>`min(${invoices.id})` })
    .from(referrals)
    .innerJoin(
      invoices,
      and(
        eq(invoices.userId, referrals.referredId),
        eq(invoices.status, 'paid'),
        gt(invoices.total, 0),
        ne(invoices.gateway, 'bonus'),
      ),
    )
    .where(isNull(referrals.rewardedAt))
    .groupBy(referrals.referredId)
    .limit(100);
  for (const { referredId, invoiceId } of unclaimed) {
    await claimReward(app, referredId, Number(invoiceId));
  }

  const now = app.payments.clock.now().getTime();
  const claimed = await app.db
    .select()
    .from(referrals)
    .where(
      and(
        lt(referrals.rewardedAt, new Date(now - GRANT_PATIENCE_MS)),
        gt(referrals.rewardedAt, new Date(now - GRANT_LOOKBACK_MS)),
      ),
    )
    .orderBy(asc(referrals.rewardedAt))
    .limit(500);
  for (const referral of claimed) {
    for (const side of SIDES) {
      const userId = side === 'referrer' ? referral.referrerId : referral.referredId;
      if (!(await granted(app.db, userId, rewardLine(referral, side)))) {
        await sendGrant(app, { referralId: referral.id, side });
      }
    }
  }
}
