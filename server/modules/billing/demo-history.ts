import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { GatewayName } from '#shared/billing/billing-values.ts';
import type { ServiceId } from '#shared/subscription/actions.ts';
import { type Database, queryRows } from '../../db/client.ts';
import { countries, coupons, products } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import {
  type DemoHistory,
  demoCoupons,
  type HistorySubscription,
  type PlanProduct,
  planDemoHistory,
} from './demo-history-plan.ts';

// 18 months of a shop's billing for the demo (issue 13 §8): about 2,000 customers with their
// subscriptions, renewals, failed payments, refunds and coupons, written once on the first
// start, so that every admin list and chart has something to show.
//
// Nothing running may act on it. Its refs are made up, known to no gateway, so it is written
// under the gateways that are off in the embedded default (cards as Stripe's, PayPal, App
// Store, Cryptomus): the billing sweep, reconciliation and lapses ask only registered
// gateways (app.payments.all() / get()), and the sandbox, which is on, keeps books of its own
// that know none of these refs. Hence the history is written only while none of those
// gateways is registered (a server selling through them would try to read it back). The
// bonus gateway is always on and its books are ours: the history's bonus runs have all ended
// (expired), which no sweep looks at. Renewal reminders go to any active subscription whose
// period ends within 3 days, whatever its gateway: each subscription's reminder is marked
// sent for its current period (nobody will renew these, a reminder would announce a charge
// that never comes, to 2,000 addresses at once).

/** Beside seed.ts's lock (72_616_002): one process writes the history. */
const HISTORY_LOCK_ID = 72_616_003;
/** Gateways that, when on, would read back or charge the history's made-up refs. */
const HISTORY_GATEWAYS: readonly GatewayName[] = ['stripe', 'paypal', 'appstore', 'cryptomus'];
/** Rows per statement (one JSON parameter each): the statistics triggers run once per statement. */
const CHUNK = 10_000;

export interface DemoHistoryCounts {
  customers: number;
  subscriptions: number;
  invoices: number;
  payments: number;
  refunds: number;
}

/**
 * Seeds the history on the first start with SEED_DEMO on (billing-plugin.ts, before the demo
 * order): answers what was written, or null when it was there already or is not wanted.
 */
export async function seedDemoHistory(app: App): Promise<DemoHistoryCounts | null> {
  if (HISTORY_GATEWAYS.some((name) => app.payments.get(name))) return null;
  const started = performance.now();
  const counts = await writeDemoHistory(app.db, {
    now: app.payments.clock.now(),
    graceDays: app.config.billing.graceDays,
  });
  if (counts) {
    const ms = Math.round(performance.now() - started);
    app.log.info({ ...counts, ms }, 'seeded the demo billing history');
  }
  return counts;
}

/**
 * Writes the history in one transaction (all or nothing), unless a history is there already
 * or there is no demo catalog to buy from. Bulk inserts, a few thousand rows a statement.
 */
export async function writeDemoHistory(
  db: Database,
  options: { now: Date; graceDays: number },
): Promise<DemoHistoryCounts | null> {
  return db.transaction(async (tx) => {
    // Processes started together on one database: one writes, the others find its history.
    await tx.execute(sql`select pg_advisory_xact_lock(${HISTORY_LOCK_ID})`);
    const [seeded] = await queryRows<{ found: boolean }>(
      tx,
      sql`select exists(select 1 from subscriptions where gateway_ref like 'demo\\_%') as found`,
    );
    if (seeded?.found) return null;
    const plans = await demoPlans(tx);
    if (plans.length === 0) return null;
    const countryRows = await tx.select({ id: countries.id, code: countries.code }).from(countries);
    const countryIds = new Map(countryRows.map((row) => [row.code, row.id]));
    const story = planDemoHistory({
      now: options.now,
      graceDays: options.graceDays,
      plans,
      bonusProductId: await bonusProductId(tx),
      countryCodes: new Set(countryIds.keys()),
    });
    await writeStory(tx, story, options.now, countryIds);
    return {
      customers: story.customers.length,
      subscriptions: story.subscriptions.length,
      invoices: story.invoices.length,
      payments: story.payments.length,
      refunds: story.refunds.length,
    };
  });
}

/** The demo catalog's plans (not addons) on sale, with their addon. */
export async function demoPlans(tx: Database): Promise<PlanProduct[]> {
  const rows = await tx.select().from(products).where(isNull(products.deletedAt));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return rows
    .filter((row) => !row.additional && [1, 2, 4, 6].includes(row.serviceId) && row.interval)
    .map((row) => {
      const addon = row.additionalProductId ? byId.get(row.additionalProductId) : undefined;
      return {
        id: row.id,
        serviceId: row.serviceId as ServiceId,
        plan: row.plan,
        name: row.name,
        currency: row.currency,
        interval: row.interval,
        intervalCount: row.intervalCount,
        amount: row.amount,
        onetime: row.onetime,
        addon: addon ? { id: addon.id, name: addon.name, amount: addon.amount } : null,
      };
    })
    .sort((a, b) => a.id - b.id);
}

/** Service 5's product, made as bonus-days.ts makes it on first use, so a grant finds it. */
async function bonusProductId(tx: Database): Promise<number> {
  const where = and(eq(products.serviceId, 5), eq(products.plan, 'bonus'));
  const [found] = await tx.select({ id: products.id }).from(products).where(where).limit(1);
  if (found) return found.id;
  const [made] = await tx
    .insert(products)
    .values({
      serviceId: 5,
      plan: 'bonus',
      name: 'Bonus days',
      description: 'Days of VPN access earned through the referral program or granted by staff.',
      amount: 0,
      currency: 'USD',
      interval: 'day',
      intervalCount: 1,
      visible: false,
    })
    .returning({ id: products.id });
  if (!made) throw new Error('the bonus product could not be made');
  return made.id;
}

type Row = Record<string, unknown>;

/**
 * `insert … select … from jsonb_to_recordset($1)`: one parameter per chunk, whatever the
 * number of rows and columns (a multi-row VALUES would need one per value).
 */
async function insertRows<T = never>(
  tx: Database,
  table: string,
  columns: Record<string, string>,
  rows: readonly Row[],
  returning?: string,
): Promise<T[]> {
  const names = Object.keys(columns).join(', ');
  const types = Object.entries(columns)
    .map(([name, type]) => `${name} ${type}`)
    .join(', ');
  const answered: T[] = [];
  for (let at = 0; at < rows.length; at += CHUNK) {
    const json = JSON.stringify(rows.slice(at, at + CHUNK));
    const query: SQL = sql`insert into ${sql.raw(table)} (${sql.raw(names)})
      select ${sql.raw(names)} from jsonb_to_recordset(${json}::jsonb) as r(${sql.raw(types)})
      ${sql.raw(returning ? `returning ${returning}` : '')}`;
    answered.push(...(await queryRows<T>(tx, query)));
  }
  return answered;
}

const need = <K, V>(map: ReadonlyMap<K, V>, key: K): V => {
  const value = map.get(key);
  if (value === undefined) throw new Error(`demo history: nothing for ${String(key)}`);
  return value;
};
const byRef = (rows: { id: number; gateway: string; gateway_ref: string }[]) =>
  new Map(rows.map((row) => [`${row.gateway}:${row.gateway_ref}`, row.id]));

/** What the entitlement ledger holds for a subscription (as entitlement-sync.ts writes it). */
function ledgerOf(subscription: HistorySubscription, now: Date) {
  const { status, currentPeriodEnd: periodEnd } = subscription;
  let endsAt: Date | null = periodEnd;
  if (status === 'on_hold') endsAt = subscription.graceUntil ?? periodEnd;
  if (status === 'expired' || status === 'failed' || status === 'refunded') {
    const ended = subscription.endedAt ?? now;
    endsAt = periodEnd < ended ? periodEnd : ended;
  }
  return {
    endsAt,
    revokedAt: status === 'refunded' ? (subscription.endedAt ?? now) : null,
  };
}

async function writeStory(
  tx: Database,
  story: DemoHistory,
  now: Date,
  countryIds: ReadonlyMap<string, number>,
): Promise<void> {
  const users = await insertRows<{ id: number; email: string }>(
    tx,
    'users',
    {
      name: 'text',
      username: 'text',
      email: 'text',
      email_verified_at: 'timestamptz',
      delete_at: 'timestamptz',
      blocked_at: 'timestamptz',
      country_id: 'integer',
      role: 'user_role',
      locale: 'text',
      created_at: 'timestamptz',
      updated_at: 'timestamptz',
    },
    story.customers.map((customer) => ({
      name: customer.name,
      username: customer.username,
      email: customer.email,
      email_verified_at: customer.emailVerifiedAt,
      delete_at: customer.deleteAt,
      blocked_at: customer.blockedAt,
      country_id: countryIds.get(customer.country) ?? null,
      role: 'USER',
      locale: customer.lang,
      created_at: customer.createdAt,
      updated_at: customer.blockedAt ?? customer.createdAt,
    })),
    'id, email',
  );
  const userIds = new Map(users.map((row) => [row.email, row.id]));
  const customers = new Map(story.customers.map((customer) => [customer.email, customer]));

  // As seed.ts does for its customers: the sign-up in each one's trail.
  await insertRows(
    tx,
    'audit_log',
    {
      action: 'text',
      actor_id: 'integer',
      subject_type: 'text',
      subject_id: 'text',
      ip: 'text',
      user_agent: 'text',
      created_at: 'timestamptz',
    },
    story.customers.map((customer) => {
      const id = need(userIds, customer.email);
      return {
        action: 'auth.signed_up',
        actor_id: id,
        subject_type: 'user',
        subject_id: String(id),
        ip: '203.0.113.10',
        user_agent: 'Mozilla/5.0 (demo data)',
        created_at: customer.createdAt,
      };
    }),
  );

  await insertRows(
    tx,
    'gateway_customers',
    {
      user_id: 'integer',
      gateway: 'gateway_name',
      customer_ref: 'text',
      created_at: 'timestamptz',
    },
    story.gatewayCustomers.map((known) => {
      const userId = need(userIds, known.email);
      return {
        user_id: userId,
        gateway: known.gateway,
        // The bonus gateway reads the user from its customer ref (bonus-gateway.ts).
        customer_ref:
          known.gateway === 'bonus' ? `bonus-${userId}` : `demo_${known.gateway}_cus_${userId}`,
        created_at: known.createdAt,
      };
    }),
  );

  const couponIds = await writeCoupons(tx, story, now);
  const subscriptionIds = byRef(
    await insertRows<{ id: number; gateway: string; gateway_ref: string }>(
      tx,
      'subscriptions',
      {
        user_id: 'integer',
        gateway: 'gateway_name',
        gateway_ref: 'text',
        service_id: 'smallint',
        product_id: 'integer',
        status: 'subscription_status',
        onetime: 'boolean',
        payment_method_type: 'payment_method_type',
        payment_method_ref: 'text',
        currency: 'text',
        amount: 'integer',
        current_period_start: 'timestamptz',
        current_period_end: 'timestamptz',
        cancel_at_period_end: 'boolean',
        canceled_at: 'timestamptz',
        ended_at: 'timestamptz',
        paused_at: 'timestamptz',
        grace_until: 'timestamptz',
        coupon_id: 'integer',
        discount_periods_left: 'integer',
        reminder_sent_for: 'timestamptz',
        gateway_updated_at: 'timestamptz',
        created_at: 'timestamptz',
        updated_at: 'timestamptz',
      },
      story.subscriptions.map((subscription) => ({
        user_id: need(userIds, subscription.email),
        gateway: subscription.gateway,
        gateway_ref: subscription.ref,
        service_id: subscription.serviceId,
        product_id: subscription.productId,
        status: subscription.status,
        onetime: subscription.onetime,
        payment_method_type: subscription.paymentMethodType,
        payment_method_ref: subscription.paymentMethodRef,
        currency: subscription.currency,
        amount: subscription.amount,
        current_period_start: subscription.currentPeriodStart,
        current_period_end: subscription.currentPeriodEnd,
        cancel_at_period_end: subscription.cancelAtPeriodEnd,
        canceled_at: subscription.canceledAt,
        ended_at: subscription.endedAt,
        paused_at: subscription.pausedAt,
        grace_until: subscription.graceUntil,
        coupon_id: subscription.couponCode ? need(couponIds, subscription.couponCode) : null,
        discount_periods_left: subscription.discountPeriodsLeft,
        // Marked sent for the current period: see the top of this file.
        reminder_sent_for: subscription.currentPeriodEnd,
        gateway_updated_at: subscription.updatedAt,
        created_at: subscription.createdAt,
        updated_at: subscription.updatedAt,
      })),
      'id, gateway, gateway_ref',
    ),
  );
  const subscriptionId = (subscription: { gateway: string; ref: string }) =>
    need(subscriptionIds, `${subscription.gateway}:${subscription.ref}`);

  await insertRows(
    tx,
    'subscription_items',
    { subscription_id: 'integer', product_id: 'integer', quantity: 'integer', amount: 'integer' },
    story.subscriptions.flatMap((subscription) =>
      subscription.items.map((item) => ({
        subscription_id: subscriptionId(subscription),
        product_id: item.productId,
        quantity: 1,
        amount: item.amount,
      })),
    ),
  );
  await insertRows(
    tx,
    'entitlements',
    {
      user_id: 'integer',
      source: 'entitlement_source',
      source_ref: 'text',
      starts_at: 'timestamptz',
      ends_at: 'timestamptz',
      revoked_at: 'timestamptz',
      created_at: 'timestamptz',
      updated_at: 'timestamptz',
    },
    // A subscription never paid grants nothing (entitlement-sync.ts).
    story.subscriptions
      .filter((subscription) => subscription.paid)
      .map((subscription) => ({
        user_id: need(userIds, subscription.email),
        source: subscription.serviceId === 5 ? 'bonus' : 'subscription',
        source_ref: `subscription:${subscriptionId(subscription)}`,
        starts_at: subscription.createdAt,
        ...(({ endsAt, revokedAt }) => ({ ends_at: endsAt, revoked_at: revokedAt }))(
          ledgerOf(subscription, now),
        ),
        created_at: subscription.createdAt,
        updated_at: subscription.updatedAt,
      })),
  );

  await insertRows(
    tx,
    'coupon_redemptions',
    {
      coupon_id: 'integer',
      user_id: 'integer',
      subscription_id: 'integer',
      redeemed_at: 'timestamptz',
    },
    story.redemptions.map((redemption) => ({
      coupon_id: need(couponIds, redemption.code),
      user_id: need(userIds, redemption.email),
      subscription_id: subscriptionId({
        gateway: redemption.gateway,
        ref: redemption.subscriptionRef,
      }),
      redeemed_at: redemption.redeemedAt,
    })),
  );

  const numbers = await invoiceNumbers(tx, story);
  const invoiceIds = byRef(
    await insertRows<{ id: number; gateway: string; gateway_ref: string }>(
      tx,
      'invoices',
      {
        number: 'text',
        user_id: 'integer',
        subscription_id: 'integer',
        gateway: 'gateway_name',
        gateway_ref: 'text',
        status: 'invoice_status',
        currency: 'text',
        subtotal: 'integer',
        discount_total: 'integer',
        tax_total: 'integer',
        total: 'integer',
        amount_paid: 'integer',
        amount_refunded: 'integer',
        coupon_id: 'integer',
        period_start: 'timestamptz',
        period_end: 'timestamptz',
        lang: 'text',
        buyer: 'jsonb',
        country: 'text',
        last_failure: 'text',
        attempt_count: 'integer',
        next_attempt_at: 'timestamptz',
        issued_at: 'timestamptz',
        paid_at: 'timestamptz',
        gateway_updated_at: 'timestamptz',
        created_at: 'timestamptz',
      },
      story.invoices.map((invoice) => {
        const customer = need(customers, invoice.email);
        return {
          number: numbers.get(invoice.ref) ?? null,
          user_id: need(userIds, invoice.email),
          subscription_id: invoice.subscriptionRef
            ? subscriptionId({ gateway: invoice.gateway, ref: invoice.subscriptionRef })
            : null,
          gateway: invoice.gateway,
          gateway_ref: invoice.ref,
          status: invoice.status,
          currency: invoice.currency,
          subtotal: invoice.subtotal,
          discount_total: invoice.discountTotal,
          tax_total: 0,
          total: invoice.total,
          amount_paid: invoice.amountPaid,
          amount_refunded: invoice.amountRefunded,
          coupon_id: invoice.couponCode ? need(couponIds, invoice.couponCode) : null,
          period_start: invoice.periodStart,
          period_end: invoice.periodEnd,
          lang: customer.lang,
          // As apply-snapshots.ts's buyerOf makes it for a customer without a billing address.
          buyer: { name: customer.name, email: customer.email, lines: [] },
          country: customer.country,
          last_failure: invoice.lastFailure,
          attempt_count: invoice.attemptCount,
          next_attempt_at: invoice.nextAttemptAt,
          issued_at: invoice.issuedAt,
          paid_at: invoice.paidAt,
          gateway_updated_at: invoice.updatedAt,
          created_at: invoice.issuedAt,
        };
      }),
      'id, gateway, gateway_ref',
    ),
  );
  const invoiceId = (gateway: string, ref: string) => need(invoiceIds, `${gateway}:${ref}`);

  await insertRows(
    tx,
    'invoice_lines',
    {
      invoice_id: 'integer',
      product_id: 'integer',
      description: 'text',
      quantity: 'integer',
      unit_amount: 'integer',
      amount: 'integer',
      period_start: 'timestamptz',
      period_end: 'timestamptz',
      proration: 'boolean',
    },
    story.invoices.flatMap((invoice) =>
      invoice.lines.map((line) => ({
        invoice_id: invoiceId(invoice.gateway, invoice.ref),
        product_id: line.productId,
        description: line.description,
        quantity: 1,
        unit_amount: line.amount,
        amount: line.amount,
        period_start: line.periodStart,
        period_end: line.periodEnd,
        proration: false,
      })),
    ),
  );
  const paymentIds = byRef(
    await insertRows<{ id: number; gateway: string; gateway_ref: string }>(
      tx,
      'payments',
      {
        invoice_id: 'integer',
        user_id: 'integer',
        gateway: 'gateway_name',
        gateway_ref: 'text',
        status: 'payment_status',
        amount: 'integer',
        currency: 'text',
        payment_method_ref: 'text',
        failure_code: 'text',
        failure_message: 'text',
        created_at: 'timestamptz',
      },
      story.payments.map((payment) => ({
        invoice_id: invoiceId(payment.gateway, payment.invoiceRef),
        user_id: need(userIds, payment.email),
        gateway: payment.gateway,
        gateway_ref: payment.ref,
        status: payment.status,
        amount: payment.amount,
        currency: payment.currency,
        payment_method_ref: payment.paymentMethodRef,
        failure_code: payment.failureCode,
        failure_message: payment.failureMessage,
        created_at: payment.createdAt,
      })),
      'id, gateway, gateway_ref',
    ),
  );
  const [admin] = await queryRows<{ id: number }>(
    tx,
    sql`select id from users where role = 'ADMIN' order by id limit 1`,
  );
  await insertRows(
    tx,
    'refunds',
    {
      payment_id: 'integer',
      invoice_id: 'integer',
      gateway: 'gateway_name',
      gateway_ref: 'text',
      amount: 'integer',
      currency: 'text',
      reason: 'text',
      created_by: 'integer',
      created_at: 'timestamptz',
    },
    story.refunds.map((refund) => ({
      payment_id: need(paymentIds, `${refund.gateway}:${refund.paymentRef}`),
      invoice_id: invoiceId(refund.gateway, refund.invoiceRef),
      gateway: refund.gateway,
      gateway_ref: refund.ref,
      amount: refund.amount,
      currency: refund.currency,
      reason: refund.reason,
      created_by: refund.byStaff ? (admin?.id ?? null) : null,
      created_at: refund.createdAt,
    })),
  );
}

/** The demo coupons (made unless staff made one of that code), counted as redeemed. */
async function writeCoupons(
  tx: Database,
  story: DemoHistory,
  now: Date,
): Promise<Map<string, number>> {
  const made = demoCoupons(now);
  await tx
    .insert(coupons)
    .values(
      made.map((coupon) => ({
        code: coupon.code,
        name: coupon.name,
        percentOff: coupon.percentOff,
        duration: coupon.duration,
        durationInMonths: coupon.durationInMonths,
        expiresAt: coupon.expiresAt,
        createdAt: coupon.createdAt,
      })),
    )
    .onConflictDoNothing();
  const ids = new Map<string, number>();
  for (const coupon of made) {
    const redeemed = story.redemptions.filter((redemption) => redemption.code === coupon.code);
    const [row] = await tx
      .update(coupons)
      .set({ timesRedeemed: sql`${coupons.timesRedeemed} + ${redeemed.length}` })
      .where(eq(sql`lower(${coupons.code})`, coupon.code.toLowerCase()))
      .returning({ id: coupons.id });
    if (row) ids.set(coupon.code, row.id);
  }
  return ids;
}

/**
 * Numbers the history's invoices in the order they were issued, each year's series from its
 * counter: the counter is moved past them in the same statement (under its row lock), so
 * the next invoice anyone finalizes takes the number after the history's.
 */
async function invoiceNumbers(tx: Database, story: DemoHistory): Promise<Map<string, string>> {
  const byYear = new Map<number, string[]>();
  const issued = [...story.invoices].sort(
    (a, b) => a.issuedAt.getTime() - b.issuedAt.getTime() || a.ref.localeCompare(b.ref),
  );
  for (const invoice of issued) {
    // As apply-snapshots.ts numbers them: a crypto order's invoice goes void unpaid, unnumbered.
    if (invoice.status === 'void') continue;
    const year = invoice.issuedAt.getUTCFullYear();
    const refs = byYear.get(year) ?? [];
    refs.push(invoice.ref);
    byYear.set(year, refs);
  }
  const numbers = new Map<string, string>();
  for (const [year, refs] of byYear) {
    const [row] = await queryRows<{ first: number }>(
      tx,
      sql`insert into invoice_counters (year, next) values (${year}, ${1 + refs.length})
          on conflict (year) do update set next = invoice_counters.next + ${refs.length}
          returning next - ${refs.length} as first`,
    );
    if (!row) throw new Error('invoice counter returned no row');
    refs.forEach((ref, index) => {
      numbers.set(ref, `INV-${year}-${String(Number(row.first) + index).padStart(6, '0')}`);
    });
  }
  return numbers;
}
