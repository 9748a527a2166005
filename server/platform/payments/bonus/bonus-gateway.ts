import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { type SubscriptionRow, subscriptions } from '../../../db/schema/index.ts';
import type { BillingClock } from '../billing-clock.ts';
import {
  type GatewayInvoice,
  GatewayRequestError,
  type GatewaySubscription,
  NOT_ON_ORDER_PAGE,
  type PaymentGateway,
  WebhookRejected,
} from '../gateway.ts';

const DAY_MS = 86_400_000;
/** A run still lasting is extended; one that ran out is followed by a new one. */
const RUNNING = new Set(['active', 'canceled']);

export interface BonusGrant {
  customerRef: string;
  priceRef: string;
  productId: number;
  days: number;
  /** What the days are for (a referral, a staff grant), on the invoice line. */
  description: string;
  /** Unique per grant: the zero invoice's ref, so a grant is recorded once. */
  grantRef: string;
}

export interface BonusGateway extends PaymentGateway {
  /** Adds days to the customer's bonus run (a new run when none lasts): charges nothing. */
  grant(input: BonusGrant): Promise<{ subscription: GatewaySubscription; invoice: GatewayInvoice }>;
}

function refuse(action: string): Promise<never> {
  return Promise.reject(new GatewayRequestError('invalid_state', `Bonus days cannot ${action}`));
}

/**
 * Service 5: bonus days (the referral program's, staff grants), an internal gateway that
 * charges nothing. Its books are ours: a grant answers the snapshots of a bonus run and a
 * zero invoice, applied like any gateway's, so the entitlement ledger and §4's bonus-upgrade
 * rule see bonus days exactly as they see a paid plan. A run ends by itself when its days
 * are spent (`fetchSubscription` answers it expired, and the billing sweep applies that).
 */
export function createBonusGateway(deps: { db: Database; clock: BillingClock }): BonusGateway {
  const { db, clock } = deps;

  function snapshotOf(
    row: Pick<
      SubscriptionRow,
      'gatewayRef' | 'currentPeriodStart' | 'currentPeriodEnd' | 'productId' | 'currency'
    > & { customerRef: string; priceRef: string; metadata: Record<string, string> },
    now: Date,
  ): GatewaySubscription {
    const ended = row.currentPeriodEnd !== null && row.currentPeriodEnd <= now;
    return {
      ref: row.gatewayRef,
      customerRef: row.customerRef,
      status: ended ? 'expired' : 'active',
      onetime: false,
      paymentMethodType: 'bonus',
      paymentMethodRef: null,
      currency: row.currency,
      items: [{ priceRef: row.priceRef, productId: row.productId, quantity: 1, amount: 0 }],
      currentPeriodStart: row.currentPeriodStart,
      currentPeriodEnd: row.currentPeriodEnd,
      cancelAtPeriodEnd: false,
      canceledAt: null,
      endedAt: ended ? row.currentPeriodEnd : null,
      pausedAt: null,
      discountCode: null,
      discountPeriodsLeft: null,
      metadata: row.metadata,
      updatedAt: now,
    };
  }

  const userIdOf = (customerRef: string) => Number(customerRef.replace(/^bonus-/, ''));

  return {
    name: 'bonus',
    serviceId: 5,
    paymentMethodType: 'bonus',
    checkoutStyle: NOT_ON_ORDER_PAGE,
    cards: null,
    ensureCustomer: async ({ userId }) => `bonus-${userId}`,
    ensurePrice: async ({ productId }) => `bonus-days-${productId}`,

    async grant(input) {
      if (!Number.isInteger(input.days) || input.days < 1) {
        throw new GatewayRequestError('invalid_request', 'Bonus days must be a whole number ≥ 1');
      }
      const now = clock.now();
      const userId = userIdOf(input.customerRef);
      const [latest] = await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, userId), eq(subscriptions.gateway, 'bonus')))
        .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
        .limit(1);
      const lasting =
        latest &&
        RUNNING.has(latest.status) &&
        latest.currentPeriodEnd !== null &&
        latest.currentPeriodEnd > now
          ? latest
          : null;
      const start = lasting?.currentPeriodStart ?? now;
      const from = lasting?.currentPeriodEnd ?? now;
      const end = new Date(from.getTime() + input.days * DAY_MS);
      const ref = lasting?.gatewayRef ?? `bonus_${userId}_${now.getTime()}`;
      const subscription = snapshotOf(
        {
          gatewayRef: ref,
          currentPeriodStart: start,
          currentPeriodEnd: end,
          productId: input.productId,
          currency: 'USD',
          customerRef: input.customerRef,
          priceRef: input.priceRef,
          metadata: { userId: String(userId) },
        },
        now,
      );
      const invoice: GatewayInvoice = {
        ref: `bonus_inv_${input.grantRef}`,
        customerRef: input.customerRef,
        subscriptionRef: ref,
        status: 'paid',
        reason: lasting ? 'subscription_update' : 'subscription_create',
        currency: 'USD',
        lines: [
          {
            description: input.description,
            priceRef: input.priceRef,
            productId: input.productId,
            quantity: input.days,
            unitAmount: 0,
            amount: 0,
            periodStart: from,
            periodEnd: end,
            proration: false,
          },
        ],
        subtotal: 0,
        discount: 0,
        tax: 0,
        total: 0,
        amountPaid: 0,
        amountRefunded: 0,
        discountCode: null,
        periodStart: from,
        periodEnd: end,
        attemptCount: 0,
        lastFailure: null,
        createdAt: now,
        paidAt: now,
        updatedAt: now,
      };
      return { subscription, invoice };
    },

    startSubscription: () => refuse('be bought: they are granted'),
    previewChange: () => refuse('change plan'),
    changePlan: () => refuse('change plan'),
    cancel: () => refuse('be canceled: they run out by themselves'),
    resume: () => refuse('be resumed'),
    pause: () => refuse('be paused'),
    unpause: () => refuse('be unpaused'),
    payInvoice: () => refuse('be paid: they cost nothing'),
    endForNonPayment: () => refuse('fail a payment'),
    refund: () => refuse('be refunded: nothing was charged'),

    async fetchSubscription(ref) {
      const [row] = await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.gateway, 'bonus'), eq(subscriptions.gatewayRef, ref)));
      if (!row) return null;
      return snapshotOf(
        {
          ...row,
          customerRef: `bonus-${row.userId}`,
          priceRef: `bonus-days-${row.productId}`,
          metadata: { userId: String(row.userId) },
        },
        clock.now(),
      );
    },
    // Its invoices are settled at the grant and never change: nothing newer to tell.
    fetchInvoice: async () => null,
    verifyWebhook: async () => {
      throw new WebhookRejected('the bonus gateway sends no webhooks');
    },
  };
}
