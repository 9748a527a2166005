import { and, eq, gte, inArray, lte, notInArray, or } from 'drizzle-orm';
import type { GatewayName } from '#shared/billing/billing-values.ts';
import { invoices, type SubscriptionRow, subscriptions } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import type { GatewaySubscription, PaymentGateway } from '../../platform/payments/gateway.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { applySnapshots } from './apply-snapshots.ts';
import { afterApplied } from './billing-effects.ts';

const DAY_MS = 86_400_000;
/** Statuses a gateway no longer changes: nothing to compare once there. */
const SETTLED = ['expired', 'refunded', 'failed'] as const;
/** How far back each daily run looks for changes at gateways that list them. */
const LOOK_BACK_DAYS = 3;

export interface Correction {
  gateway: GatewayName;
  ref: string;
  subscriptionId: number | null;
  before: Pick<SubscriptionRow, 'status' | 'currentPeriodEnd' | 'cancelAtPeriodEnd'> | null;
  after: Pick<GatewaySubscription, 'status' | 'currentPeriodEnd' | 'cancelAtPeriodEnd'>;
}

const sameTime = (a: Date | null, b: Date | null) =>
  (a?.getTime() ?? null) === (b?.getTime() ?? null);

function differs(ours: SubscriptionRow | undefined, theirs: GatewaySubscription): boolean {
  return (
    !ours ||
    ours.status !== theirs.status ||
    ours.cancelAtPeriodEnd !== theirs.cancelAtPeriodEnd ||
    !sameTime(ours.currentPeriodEnd, theirs.currentPeriodEnd)
  );
}

/**
 * Takes the gateway's state of one subscription where ours differs, with an audit entry in
 * the same transaction and a warning in the log: a lost webhook is found and its effect
 * (mails, live event) follows as if it had arrived.
 */
async function correct(
  app: App,
  gateway: PaymentGateway,
  theirs: GatewaySubscription,
  reason: string,
): Promise<Correction | null> {
  const [ours] = await app.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.gateway, gateway.name), eq(subscriptions.gatewayRef, theirs.ref)));
  // The paying invoice too: a subscription whose paid invoice we never got grants nothing.
  const invoice = theirs.latestInvoiceRef
    ? await gateway.fetchInvoice(theirs.latestInvoiceRef)
    : null;
  const [ourInvoice] = invoice
    ? await app.db
        .select({ status: invoices.status })
        .from(invoices)
        .where(and(eq(invoices.gateway, gateway.name), eq(invoices.gatewayRef, invoice.ref)))
    : [];
  const invoiceDiffers = invoice !== null && ourInvoice?.status !== invoice.status;
  if (!differs(ours, theirs) && !invoiceDiffers) return null;
  const applied = await app.db.transaction(async (tx) => {
    const done = await applySnapshots(
      tx,
      {
        gateway: gateway.name,
        now: app.payments.clock.now(),
        graceDays: app.config.billing.graceDays,
      },
      invoice ? { subscription: theirs, invoice } : { subscription: theirs },
    );
    const row = done.subscription?.row;
    if (row) {
      await recordAudit(tx, null, {
        action: 'billing.reconciled',
        actorId: null,
        subjectType: 'subscription',
        subjectId: row.id,
        data: {
          gateway: gateway.name,
          ref: theirs.ref,
          reason,
          before: ours
            ? {
                status: ours.status,
                period_end: ours.currentPeriodEnd?.toISOString() ?? null,
                cancel_at_period_end: ours.cancelAtPeriodEnd,
              }
            : null,
          after: {
            status: row.status,
            period_end: row.currentPeriodEnd?.toISOString() ?? null,
            cancel_at_period_end: row.cancelAtPeriodEnd,
          },
        },
      });
    }
    return done;
  });
  if (!applied.subscription) return null;
  await afterApplied(app, applied);
  const correction: Correction = {
    gateway: gateway.name,
    ref: theirs.ref,
    subscriptionId: applied.subscription.row.id,
    before: ours
      ? {
          status: ours.status,
          currentPeriodEnd: ours.currentPeriodEnd,
          cancelAtPeriodEnd: ours.cancelAtPeriodEnd,
        }
      : null,
    after: {
      status: theirs.status,
      currentPeriodEnd: theirs.currentPeriodEnd,
      cancelAtPeriodEnd: theirs.cancelAtPeriodEnd,
    },
  };
  app.log.warn({ correction }, 'reconciliation corrected a subscription');
  return correction;
}

/** Our subscriptions at a gateway that may still change, read back one by one. */
async function readBackOneByOne(
  app: App,
  gateway: PaymentGateway,
  where: ReturnType<typeof and>,
  reason: string,
): Promise<Correction[]> {
  const corrections: Correction[] = [];
  const rows = await app.db
    .select({ ref: subscriptions.gatewayRef })
    .from(subscriptions)
    .where(and(eq(subscriptions.gateway, gateway.name), where));
  for (const { ref } of rows) {
    try {
      const theirs = await gateway.fetchSubscription(ref);
      const done = theirs && (await correct(app, gateway, theirs, reason));
      if (done) corrections.push(done);
    } catch (error) {
      app.log.error({ err: error, gateway: gateway.name, ref }, 'reconciliation read failed');
    }
  }
  return corrections;
}

/**
 * The daily comparison of our subscriptions with each gateway's (issue 12 §8): a gateway
 * with a listing API is asked what changed in the last days (which also finds subscriptions
 * whose creation webhook never came); the others are read back one by one for every
 * subscription of ours they may still change. Each difference is corrected and logged.
 */
export async function reconcile(app: App): Promise<Correction[]> {
  const corrections: Correction[] = [];
  const now = app.payments.clock.now();
  for (const gateway of app.payments.all()) {
    try {
      if (gateway.listSubscriptions) {
        const since = new Date(now.getTime() - LOOK_BACK_DAYS * DAY_MS);
        for await (const theirs of gateway.listSubscriptions(since)) {
          const done = await correct(app, gateway, theirs, 'listed by the gateway');
          if (done) corrections.push(done);
        }
      } else {
        corrections.push(
          ...(await readBackOneByOne(
            app,
            gateway,
            notInArray(subscriptions.status, [...SETTLED]),
            'read back from the gateway',
          )),
        );
      }
    } catch (error) {
      app.log.error({ err: error, gateway: gateway.name }, 'reconciliation failed for a gateway');
    }
  }
  return corrections;
}

/**
 * Runs out what no provider tells us of: one-time purchases (crypto) and bonus runs end when
 * their period does; their gateway answers them expired, and that is applied (every minute,
 * with the billing sweep).
 */
export async function lapseEndedPeriods(app: App): Promise<Correction[]> {
  const now = app.payments.clock.now();
  const corrections: Correction[] = [];
  for (const gateway of app.payments.all()) {
    corrections.push(
      ...(await readBackOneByOne(
        app,
        gateway,
        and(
          inArray(subscriptions.status, ['active', 'canceled']),
          lte(subscriptions.currentPeriodEnd, now),
          or(eq(subscriptions.onetime, true), eq(subscriptions.gateway, 'bonus')),
          gte(subscriptions.currentPeriodEnd, new Date(now.getTime() - 30 * DAY_MS)),
        ),
        'its period ended',
      )),
    );
  }
  return corrections;
}
