import { and, eq, gt, ne } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { REFERRAL_MESSAGES } from '#shared/contracts/referral.ts';
import type { Database } from '../../db/client.ts';
import { invoices, referrals, type UserRow } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';
import { failsWith } from '../../platform/rate-limit/rate-limiter.ts';
import { referrerOf } from './referral-codes.ts';
import { announceReferral } from './referral-events.ts';

const HOUR = 3_600_000;

/**
 * Unknown codes are guesses at someone's link: limited per account and per address (an
 * honest customer joins once, from the one link they were sent).
 */
const JOIN_LIMITS = {
  perAccount: { limit: 10, windowMs: HOUR },
  perIp: { limit: 30, windowMs: HOUR },
} as const;

const conflict = (info: string) => new AppError('conflict', { info });

/** Any payment with money in it: such an account is a customer already, not a referral. */
async function hasPaid(db: Database, userId: number): Promise<boolean> {
  const [found] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(
      and(
        eq(invoices.userId, userId),
        eq(invoices.status, 'paid'),
        gt(invoices.total, 0),
        ne(invoices.gateway, 'bonus'),
      ),
    )
    .limit(1);
  return found !== undefined;
}

/**
 * §7 referral-program join: the signed-in user becomes the referral of the code's owner.
 * Nothing is granted yet: the days come with the user's first payment (referral-rewards.ts).
 */
export async function joinReferral(
  app: App,
  request: FastifyRequest,
  user: UserRow,
  token: string,
): Promise<void> {
  const referrerId = await app.rateLimiter.limitFailures(
    [
      { name: 'referral-join', key: String(user.id), ...JOIN_LIMITS.perAccount },
      { name: 'referral-join-ip', key: request.ip, ...JOIN_LIMITS.perIp },
    ],
    async () => {
      const found = await referrerOf(app.db, token);
      if (found === null) throw AppError.field('token', REFERRAL_MESSAGES.codeUnknown);
      return found;
    },
    failsWith('validation_failed'),
  );
  if (referrerId === user.id) throw conflict(REFERRAL_MESSAGES.ownCode);
  const joined = await app.db.transaction(async (tx) => {
    const [already] = await tx
      .select({ id: referrals.id })
      .from(referrals)
      .where(eq(referrals.referredId, user.id));
    if (already) throw conflict(REFERRAL_MESSAGES.alreadyReferred);
    if (await hasPaid(tx, user.id)) throw conflict(REFERRAL_MESSAGES.alreadyPaid);
    // Two joins at once: the unique referred key lets one in.
    const [row] = await tx
      .insert(referrals)
      .values({ referrerId, referredId: user.id })
      .onConflictDoNothing()
      .returning();
    if (!row) throw conflict(REFERRAL_MESSAGES.alreadyReferred);
    return row;
  });
  await announceReferral(app, joined.referrerId);
}
