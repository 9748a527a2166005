import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { BILLING_MESSAGES } from '#shared/contracts/billing.ts';
import type { Database } from '../../db/client.ts';
import { couponHolds, couponRedemptions, coupons, subscriptions } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';
import type { Applied } from './apply-snapshots.ts';
import { couponRefusal } from './coupon-check.ts';

// A coupon's use is taken when an order starts, before the charge, so two orders cannot both
// have a capped coupon's last one. The use is held until the gateway says the first invoice
// is paid (its answer, or after a hosted payment page its webhook), and is then recorded as
// a redemption. A hold that bought nothing is given back: at once when the charge fails, by
// the billing sweep once no hosted page can still be paid.

/** Longer than any gateway's hosted payment page lives (Stripe Checkout: 24 hours). */
export const COUPON_HOLD_MS = 25 * 60 * 60_000;

/**
 * Takes one use of the coupon on its locked row, checked again there (staff may have deleted
 * it, or it may have expired or been used up, since the order was priced). Returns the hold.
 */
export async function takeCouponUse(app: App, couponId: number, userId: number): Promise<number> {
  return app.db.transaction(async (tx) => {
    const [coupon] = await tx.select().from(coupons).where(eq(coupons.id, couponId)).for('update');
    const now = app.payments.clock.now();
    const refusal = coupon ? couponRefusal(coupon, now) : BILLING_MESSAGES.couponUnknown;
    if (refusal) throw AppError.field('coupon', refusal);
    await countUses(tx, couponId, 1);
    const [hold] = await tx
      .insert(couponHolds)
      .values({ couponId, userId, createdAt: now })
      .returning({ id: couponHolds.id });
    if (!hold) throw new Error('the coupon hold was not stored');
    return hold.id;
  });
}

/** The order bought nothing (declined, or the gateway failed): its use goes back. */
export async function giveBackCouponUse(app: App, holdId: number): Promise<void> {
  await app.db.transaction(async (tx) => {
    const [hold] = await tx
      .delete(couponHolds)
      .where(eq(couponHolds.id, holdId))
      .returning({ couponId: couponHolds.couponId });
    if (hold) await countUses(tx, hold.couponId, -1);
  });
}

/**
 * The billing listener: the first paid invoice of a subscription with a coupon on it records
 * the redemption, once, settling the hold its order took. With no hold left (paid after the
 * hold was given back), the use is counted now: the gateway has already given the discount.
 */
export async function recordCouponUse(app: App, applied: Applied): Promise<void> {
  const invoice = applied.invoice?.row;
  if (invoice?.status !== 'paid' || !invoice.couponId || !invoice.subscriptionId) return;
  const { couponId, userId, subscriptionId } = invoice;
  await app.db.transaction(async (tx) => {
    // Once per subscription, whether our answer or the gateway's webhook comes first.
    await tx
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(eq(subscriptions.id, subscriptionId))
      .for('update');
    const [already] = await tx
      .select({ id: couponRedemptions.id })
      .from(couponRedemptions)
      .where(
        and(
          eq(couponRedemptions.couponId, couponId),
          eq(couponRedemptions.subscriptionId, subscriptionId),
        ),
      );
    if (already) return;
    const oldest = tx
      .select({ id: couponHolds.id })
      .from(couponHolds)
      .where(
        and(
          eq(couponHolds.couponId, couponId),
          userId === null ? sql`false` : eq(couponHolds.userId, userId),
        ),
      )
      .orderBy(asc(couponHolds.id))
      .limit(1);
    const [settled] = await tx
      .delete(couponHolds)
      .where(inArray(couponHolds.id, oldest))
      .returning({ id: couponHolds.id });
    if (!settled) await countUses(tx, couponId, 1);
    await tx.insert(couponRedemptions).values({
      couponId,
      userId,
      subscriptionId,
      redeemedAt: app.payments.clock.now(),
    });
    // Staff see who came with which coupon, after a first-invoice-only discount is gone too.
    await tx
      .update(subscriptions)
      .set({ couponId })
      .where(and(eq(subscriptions.id, subscriptionId), isNull(subscriptions.couponId)));
  });
}

/** Part of the billing sweep: holds no hosted page can still pay give their uses back. */
export async function releaseStaleCouponHolds(app: App): Promise<void> {
  const stale = new Date(app.payments.clock.now().getTime() - COUPON_HOLD_MS);
  await app.db.transaction(async (tx) => {
    const released = await tx
      .delete(couponHolds)
      .where(lte(couponHolds.createdAt, stale))
      .returning({ couponId: couponHolds.couponId });
    const perCoupon = new Map<number, number>();
    for (const { couponId } of released) {
      perCoupon.set(couponId, (perCoupon.get(couponId) ?? 0) + 1);
    }
    for (const [couponId, uses] of perCoupon) await countUses(tx, couponId, -uses);
  });
}

async function countUses(tx: Database, couponId: number, change: number): Promise<void> {
  await tx
    .update(coupons)
    .set({ timesRedeemed: sql`greatest(${coupons.timesRedeemed} + ${change}, 0)` })
    .where(eq(coupons.id, couponId));
}
