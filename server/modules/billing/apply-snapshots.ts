import { and, eq, ne, sql } from 'drizzle-orm';
import type { GatewayName, InvoiceStatus } from '#shared/billing/billing-values.ts';
import { isLang } from '#shared/locales.ts';
import type { SubscriptionStatus } from '#shared/subscription/actions.ts';
import type { Database } from '../../db/client.ts';
import {
  type CardSourceRow,
  cardSources,
  countries,
  coupons,
  gatewayCustomers,
  gatewayPrices,
  type InvoiceRow,
  invoiceLines,
  invoices,
  payments,
  products,
  refunds,
  type SubscriptionRow,
  subscriptionItems,
  subscriptions,
  users,
} from '../../db/schema/index.ts';
import type {
  GatewayCard,
  GatewayEvent,
  GatewayInvoice,
  GatewayPayment,
  GatewayRefund,
  GatewaySubscription,
} from '../../platform/payments/gateway.ts';
import { syncSubscriptionEntitlement } from './entitlement-sync.ts';
import { lockBooks, nextInvoiceNumber } from './invoice-numbers.ts';

// Applies what a gateway says (a webhook's snapshots, or the answer to our own call) to our
// books, inside the caller's transaction. Each object is taken only if its snapshot is at
// least as new as what we hold (`gatewayUpdatedAt`), so the same event twice changes nothing
// and events arriving out of order converge to the gateway's latest state.

export type Snapshots = Pick<
  GatewayEvent,
  'subscription' | 'invoice' | 'payment' | 'refund' | 'card' | 'deletedCardRef'
>;

/** What changed, for what happens after the commit (mails, live events, dunning). */
export interface Applied {
  userId: number | null;
  subscription: { row: SubscriptionRow; before: SubscriptionStatus | null } | null;
  invoice: { row: InvoiceRow; before: InvoiceStatus | null } | null;
  refundCreated: { invoiceId: number; amount: number; currency: string } | null;
  cardsChanged: boolean;
  /** Something in the event was older than what we hold, or not ours. */
  ignored: string[];
}

export interface ApplyContext {
  gateway: GatewayName;
  now: Date;
  graceDays: number;
}

const DAY_MS = 86_400_000;

export async function applySnapshots(
  tx: Database,
  context: ApplyContext,
  snapshots: Snapshots,
): Promise<Applied> {
  const applied: Applied = {
    userId: null,
    subscription: null,
    invoice: null,
    refundCreated: null,
    cardsChanged: false,
    ignored: [],
  };
  // The books first, then the objects' locks and rows (invoice-numbers.ts, lockBooks).
  if (snapshots.subscription || snapshots.invoice || snapshots.payment || snapshots.refund) {
    await lockBooks(tx);
  }
  if (snapshots.subscription) await applySubscription(tx, context, snapshots.subscription, applied);
  if (snapshots.invoice) await applyInvoice(tx, context, snapshots.invoice, applied);
  if (snapshots.payment) await applyPayment(tx, context, snapshots.payment, applied);
  if (snapshots.refund) await applyRefund(tx, context, snapshots.refund, applied);
  if (snapshots.card) await applyCard(tx, context, snapshots.card, applied);
  if (snapshots.deletedCardRef) await removeCard(tx, context, snapshots.deletedCardRef, applied);
  // A paid invoice may arrive after its subscription: the ledger follows either.
  const subscriptionId = applied.subscription?.row.id ?? applied.invoice?.row.subscriptionId;
  if (subscriptionId) {
    const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
    if (row) await syncSubscriptionEntitlement(tx, row, context.now);
  }
  return applied;
}

export async function userOfCustomer(
  tx: Database,
  gateway: GatewayName,
  customerRef: string,
): Promise<number | null> {
  const [row] = await tx
    .select({ userId: gatewayCustomers.userId })
    .from(gatewayCustomers)
    .where(
      and(eq(gatewayCustomers.gateway, gateway), eq(gatewayCustomers.customerRef, customerRef)),
    );
  return row?.userId ?? null;
}

async function productOf(
  tx: Database,
  gateway: GatewayName,
  item: { productId: number | null; priceRef: string | null },
): Promise<number | null> {
  // Our price's product first: staff may have merged the product the gateway's metadata
  // still names into another (the price moved with it, server/modules/products).
  if (item.priceRef) {
    const [row] = await tx
      .select({ id: gatewayPrices.productId })
      .from(gatewayPrices)
      .where(and(eq(gatewayPrices.gateway, gateway), eq(gatewayPrices.priceRef, item.priceRef)));
    if (row) return row.id;
  }
  return item.productId || null;
}

async function couponIdOf(tx: Database, code: string | null): Promise<number | null> {
  if (!code) return null;
  const [row] = await tx
    .select({ id: coupons.id })
    .from(coupons)
    .where(eq(sql`lower(${coupons.code})`, code.toLowerCase()));
  return row?.id ?? null;
}

/**
 * Two appliers of the same object (our answer and its webhook, a double click) take turns:
 * the second then finds the row the first inserted instead of inserting it again.
 */
async function lockObject(tx: Database, gateway: GatewayName, kind: string, ref: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${gateway}:${kind}:${ref}`}))`);
}

/**
 * Taken before any write to a user's cards or default_source. A change of default writes
 * every card of the user (and the gateway reports it as one event per card, applied while
 * our own call still saves its answer); a lock per card, taken in different orders by
 * those transactions, deadlocked on PostgreSQL.
 */
export async function lockCardsOf(tx: Database, userId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`cards-of-user:${userId}`}))`);
}

async function applySubscription(
  tx: Database,
  context: ApplyContext,
  snapshot: GatewaySubscription,
  applied: Applied,
): Promise<void> {
  await lockObject(tx, context.gateway, 'subscription', snapshot.ref);
  const [existing] = await tx
    .select()
    .from(subscriptions)
    .where(
      and(eq(subscriptions.gateway, context.gateway), eq(subscriptions.gatewayRef, snapshot.ref)),
    )
    .for('update');
  if (existing && existing.gatewayUpdatedAt > snapshot.updatedAt) {
    applied.ignored.push(`subscription ${snapshot.ref}: older than held`);
    applied.userId = existing.userId;
    return;
  }
  const metadataUser = Number(snapshot.metadata.userId);
  // Whose it is now is the gateway's customer's: an App Store subscription bought again
  // under another of our accounts (the same Apple ID, a new appAccountToken) moves to it.
  const userId =
    (await userOfCustomer(tx, context.gateway, snapshot.customerRef)) ??
    existing?.userId ??
    (Number.isInteger(metadataUser) && metadataUser > 0 ? metadataUser : null);
  const items: { productId: number; quantity: number; amount: number }[] = [];
  for (const item of snapshot.items) {
    const productId = await productOf(tx, context.gateway, item);
    if (productId) items.push({ productId, quantity: item.quantity, amount: item.amount });
  }
  const planId = items[0]?.productId ?? existing?.productId;
  if (!userId || !planId) {
    applied.ignored.push(`subscription ${snapshot.ref}: unknown customer or product`);
    return;
  }
  applied.userId = userId;
  const [plan] = await tx.select().from(products).where(eq(products.id, planId));
  // Access outlasts a failed renewal by the grace period, counted from the first failure.
  const graceUntil =
    snapshot.status === 'on_hold'
      ? (existing?.status === 'on_hold' && existing.graceUntil) ||
        new Date(context.now.getTime() + context.graceDays * DAY_MS)
      : null;
  const values = {
    userId,
    gateway: context.gateway,
    gatewayRef: snapshot.ref,
    serviceId: plan?.serviceId ?? 1,
    productId: planId,
    status: snapshot.status,
    onetime: snapshot.onetime,
    paymentMethodType: snapshot.paymentMethodType,
    paymentMethodRef: snapshot.paymentMethodRef,
    currency: snapshot.currency,
    amount: snapshot.items.reduce((sum, item) => sum + item.amount * item.quantity, 0),
    currentPeriodStart: snapshot.currentPeriodStart,
    currentPeriodEnd: snapshot.currentPeriodEnd,
    cancelAtPeriodEnd: snapshot.cancelAtPeriodEnd,
    canceledAt: snapshot.canceledAt,
    endedAt: snapshot.endedAt,
    pausedAt: snapshot.pausedAt,
    graceUntil,
    // The coupon stays named after its last discounted period (who came with which coupon).
    couponId: (await couponIdOf(tx, snapshot.discountCode)) ?? existing?.couponId ?? null,
    discountPeriodsLeft: snapshot.discountPeriodsLeft,
    gatewayUpdatedAt: snapshot.updatedAt,
  };
  let row: SubscriptionRow | undefined;
  if (existing) {
    [row] = await tx
      .update(subscriptions)
      .set(values)
      .where(eq(subscriptions.id, existing.id))
      .returning();
  } else {
    [row] = await tx.insert(subscriptions).values(values).returning();
  }
  if (!row) throw new Error('subscription upsert returned no row');
  await tx.delete(subscriptionItems).where(eq(subscriptionItems.subscriptionId, row.id));
  if (items.length > 0) {
    const unique = [...new Map(items.map((item) => [item.productId, item])).values()];
    await tx
      .insert(subscriptionItems)
      .values(unique.map((item) => ({ ...item, subscriptionId: row.id })));
  }
  applied.subscription = { row, before: existing?.status ?? null };
}

const NUMBERED: readonly InvoiceStatus[] = ['open', 'paid', 'uncollectible'];

const NOBODY = { buyer: { name: '', email: '', lines: [] }, lang: 'en', country: null };

/** Who is billed, in which language, from which country (the billing address's, else the profile's). */
async function buyerOf(tx: Database, userId: number | null) {
  if (!userId) return NOBODY;
  const [found] = await tx
    .select({ user: users, profileCountry: countries.code })
    .from(users)
    .leftJoin(countries, eq(countries.id, users.countryId))
    .where(eq(users.id, userId));
  if (!found) return NOBODY;
  const { user, profileCountry } = found;
  const address = user.billingAddress ?? {};
  const cityLine = [address.postal_code, address.city].filter(Boolean).join(' ');
  const lines = [
    address.company,
    address.line1,
    address.line2,
    cityLine,
    address.region,
    address.country,
    address.vat_id ? `VAT ${address.vat_id}` : '',
  ].filter((line): line is string => Boolean(line));
  return {
    buyer: { name: address.name || user.name || user.username, email: user.email, lines },
    lang: isLang(user.locale ?? undefined) ? (user.locale as string) : 'en',
    country: address.country || profileCountry || null,
  };
}

async function applyInvoice(
  tx: Database,
  context: ApplyContext,
  snapshot: GatewayInvoice,
  applied: Applied,
): Promise<void> {
  await lockObject(tx, context.gateway, 'invoice', snapshot.ref);
  const [existing] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.gateway, context.gateway), eq(invoices.gatewayRef, snapshot.ref)))
    .for('update');
  if (existing && existing.gatewayUpdatedAt > snapshot.updatedAt) {
    applied.ignored.push(`invoice ${snapshot.ref}: older than held`);
    applied.userId ??= existing.userId;
    return;
  }
  const [subscription] = snapshot.subscriptionRef
    ? await tx
        .select({ id: subscriptions.id, userId: subscriptions.userId })
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.gateway, context.gateway),
            eq(subscriptions.gatewayRef, snapshot.subscriptionRef),
          ),
        )
    : [];
  const userId =
    existing?.userId ??
    (await userOfCustomer(tx, context.gateway, snapshot.customerRef)) ??
    subscription?.userId;
  if (!userId) {
    applied.ignored.push(`invoice ${snapshot.ref}: unknown customer`);
    return;
  }
  applied.userId ??= userId;
  const number =
    existing?.number ??
    (NUMBERED.includes(snapshot.status) ? await nextInvoiceNumber(tx, snapshot.createdAt) : null);
  const values = {
    number,
    userId,
    subscriptionId: existing?.subscriptionId ?? subscription?.id ?? null,
    gateway: context.gateway,
    gatewayRef: snapshot.ref,
    status: snapshot.status,
    currency: snapshot.currency,
    subtotal: snapshot.subtotal,
    discountTotal: snapshot.discount,
    taxTotal: snapshot.tax,
    total: snapshot.total,
    amountPaid: snapshot.amountPaid,
    // Money given back stays given back: a provider's list read that cannot tell the
    // refunded amount (PayPal's) never lowers what a refund event recorded.
    amountRefunded: Math.max(existing?.amountRefunded ?? 0, snapshot.amountRefunded),
    couponId: await couponIdOf(tx, snapshot.discountCode),
    periodStart: snapshot.periodStart,
    periodEnd: snapshot.periodEnd,
    lastFailure: snapshot.lastFailure,
    attemptCount: snapshot.attemptCount,
    issuedAt: snapshot.createdAt,
    paidAt: snapshot.paidAt,
    gatewayUpdatedAt: snapshot.updatedAt,
  };
  let row: InvoiceRow | undefined;
  if (existing) {
    [row] = await tx.update(invoices).set(values).where(eq(invoices.id, existing.id)).returning();
  } else {
    const { buyer, lang, country } = await buyerOf(tx, userId);
    [row] = await tx
      .insert(invoices)
      .values({ ...values, buyer, lang, country })
      .returning();
  }
  if (!row) throw new Error('invoice upsert returned no row');
  // Lines are the gateway's; once numbered they are what was billed and stay.
  if (!existing?.number) {
    await tx.delete(invoiceLines).where(eq(invoiceLines.invoiceId, row.id));
    const lines = [];
    for (const line of snapshot.lines) {
      lines.push({
        invoiceId: row.id,
        productId: await productOf(tx, context.gateway, line),
        description: line.description,
        quantity: line.quantity,
        unitAmount: line.unitAmount,
        amount: line.amount,
        periodStart: line.periodStart,
        periodEnd: line.periodEnd,
        proration: line.proration,
      });
    }
    if (lines.length > 0) await tx.insert(invoiceLines).values(lines);
  }
  applied.invoice = { row, before: existing?.status ?? null };
}

async function invoiceIdOf(tx: Database, gateway: GatewayName, ref: string) {
  const [row] = await tx
    .select({ id: invoices.id, userId: invoices.userId })
    .from(invoices)
    .where(and(eq(invoices.gateway, gateway), eq(invoices.gatewayRef, ref)));
  return row;
}

async function applyPayment(
  tx: Database,
  context: ApplyContext,
  snapshot: GatewayPayment,
  applied: Applied,
): Promise<void> {
  const invoice = await invoiceIdOf(tx, context.gateway, snapshot.invoiceRef);
  if (!invoice) {
    applied.ignored.push(`payment ${snapshot.ref}: invoice not known yet`);
    return;
  }
  const values = {
    invoiceId: invoice.id,
    userId: invoice.userId,
    gateway: context.gateway,
    gatewayRef: snapshot.ref,
    status: snapshot.status,
    amount: snapshot.amount,
    currency: snapshot.currency,
    paymentMethodRef: snapshot.paymentMethodRef,
    failureCode: snapshot.failureCode,
    failureMessage: snapshot.failureMessage,
    createdAt: snapshot.createdAt,
  };
  // A payment only moves forward: a late "pending" never undoes "succeeded".
  await tx
    .insert(payments)
    .values(values)
    .onConflictDoUpdate({
      target: [payments.gateway, payments.gatewayRef],
      set: {
        status: values.status,
        failureCode: values.failureCode,
        failureMessage: values.failureMessage,
      },
      setWhere: and(ne(payments.status, 'succeeded'), ne(payments.status, 'failed')),
    });
  applied.userId ??= invoice.userId;
}

async function applyRefund(
  tx: Database,
  context: ApplyContext,
  snapshot: GatewayRefund,
  applied: Applied,
): Promise<void> {
  const invoice = await invoiceIdOf(tx, context.gateway, snapshot.invoiceRef);
  const [payment] = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(eq(payments.gateway, context.gateway), eq(payments.gatewayRef, snapshot.paymentRef)),
    );
  if (!invoice || !payment) {
    applied.ignored.push(`refund ${snapshot.ref}: payment not known`);
    return;
  }
  const inserted = await tx
    .insert(refunds)
    .values({
      paymentId: payment.id,
      invoiceId: invoice.id,
      gateway: context.gateway,
      gatewayRef: snapshot.ref,
      amount: snapshot.amount,
      currency: snapshot.currency,
      reason: snapshot.reason,
      createdAt: snapshot.createdAt,
    })
    .onConflictDoNothing()
    .returning({ id: refunds.id });
  applied.userId ??= invoice.userId;
  if (inserted.length > 0) {
    applied.refundCreated = {
      invoiceId: invoice.id,
      amount: snapshot.amount,
      currency: snapshot.currency,
    };
  }
}

async function applyCard(
  tx: Database,
  context: ApplyContext,
  snapshot: GatewayCard,
  applied: Applied,
): Promise<void> {
  const userId = await userOfCustomer(tx, context.gateway, snapshot.customerRef);
  if (!userId) {
    applied.ignored.push(`card ${snapshot.ref}: unknown customer`);
    return;
  }
  applied.userId ??= userId;
  await upsertCard(tx, context.gateway, userId, snapshot);
  applied.cardsChanged = true;
}

/**
 * Saves a card as the gateway shows it, unless what we hold is newer (a late event must not
 * bring back an old default); the default one is also users.default_source (§3).
 */
export async function upsertCard(
  tx: Database,
  gateway: GatewayName,
  userId: number,
  card: GatewayCard,
): Promise<CardSourceRow> {
  await lockCardsOf(tx, userId);
  const [held] = await tx
    .select()
    .from(cardSources)
    .where(and(eq(cardSources.gateway, gateway), eq(cardSources.gatewayRef, card.ref)));
  if (held?.gatewayUpdatedAt && held.gatewayUpdatedAt > card.updatedAt) return held;
  const values = {
    userId,
    gateway,
    gatewayRef: card.ref,
    brand: card.brand,
    last4: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
    isDefault: card.isDefault,
    gatewayUpdatedAt: card.updatedAt,
  };
  if (card.isDefault) {
    await tx
      .update(cardSources)
      .set({ isDefault: false })
      .where(and(eq(cardSources.userId, userId), ne(cardSources.gatewayRef, card.ref)));
    await tx.update(users).set({ defaultSource: card.ref }).where(eq(users.id, userId));
  }
  const [row] = await tx
    .insert(cardSources)
    .values(values)
    .onConflictDoUpdate({ target: [cardSources.gateway, cardSources.gatewayRef], set: values })
    .returning();
  if (!row) throw new Error('card upsert returned no row');
  return row;
}

async function removeCard(
  tx: Database,
  context: ApplyContext,
  ref: string,
  applied: Applied,
): Promise<void> {
  const ofRef = and(eq(cardSources.gateway, context.gateway), eq(cardSources.gatewayRef, ref));
  const [held] = await tx.select({ userId: cardSources.userId }).from(cardSources).where(ofRef);
  if (!held) return;
  await lockCardsOf(tx, held.userId);
  const [removed] = await tx.delete(cardSources).where(ofRef).returning();
  if (!removed) return;
  applied.userId ??= removed.userId;
  applied.cardsChanged = true;
  await tx
    .update(users)
    .set({ defaultSource: null })
    .where(and(eq(users.id, removed.userId), eq(users.defaultSource, ref)));
}
