import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { entitlements, invoices, type SubscriptionRow } from '../../db/schema/index.ts';

/**
 * Keeps the ledger's row for a subscription in step with it: access from its start to the
 * end of the paid period (the grace end while a failed renewal is retried), ended when it
 * ends, revoked when it is refunded. A subscription never paid (a declined or unconfirmed
 * first payment) grants nothing.
 */
export async function syncSubscriptionEntitlement(
  tx: Database,
  subscription: SubscriptionRow,
  now: Date,
): Promise<void> {
  const [paid] = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.subscriptionId, subscription.id), eq(invoices.status, 'paid')))
    .limit(1);
  if (!paid) return;
  const { status } = subscription;
  const periodEnd = subscription.currentPeriodEnd;
  let endsAt: Date | null = periodEnd;
  if (status === 'on_hold') endsAt = subscription.graceUntil ?? periodEnd;
  if (status === 'expired' || status === 'failed' || status === 'refunded') {
    const ended = subscription.endedAt ?? now;
    endsAt = periodEnd && periodEnd < ended ? periodEnd : ended;
  }
  const revokedAt = status === 'refunded' ? (subscription.endedAt ?? now) : null;
  const startsAt = subscription.createdAt;
  await tx
    .insert(entitlements)
    .values({
      userId: subscription.userId,
      // Bonus runs (service 5) are bonus days in the ledger, whoever asks why.
      source: subscription.serviceId === 5 ? 'bonus' : 'subscription',
      sourceRef: `subscription:${subscription.id}`,
      startsAt,
      endsAt,
      revokedAt,
    })
    .onConflictDoUpdate({
      target: [entitlements.userId, entitlements.source, entitlements.sourceRef],
      set: { endsAt, revokedAt, updatedAt: sql`now()` },
    });
}

/** Whether the ledger lets the user use the VPN at `at`, and until when. */
export async function accessOf(
  db: Database,
  userId: number,
  at: Date,
): Promise<{ active: boolean; until: Date | null; sources: string[] }> {
  const rows = await db.select().from(entitlements).where(eq(entitlements.userId, userId));
  const live = rows.filter(
    (row) => !row.revokedAt && row.startsAt <= at && (row.endsAt === null || row.endsAt > at),
  );
  const until = live.some((row) => row.endsAt === null)
    ? null
    : live.reduce<Date | null>(
        (latest, row) => (!latest || (row.endsAt && row.endsAt > latest) ? row.endsAt : latest),
        null,
      );
  return { active: live.length > 0, until, sources: [...new Set(live.map((row) => row.source))] };
}
