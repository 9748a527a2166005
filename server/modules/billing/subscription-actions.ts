import { and, desc, eq } from 'drizzle-orm';
import {
  BILLING_MESSAGES,
  type ChangePreviewResponse,
  type CheckoutResponse,
  type SubscriptionDetail,
} from '#shared/contracts/billing.ts';
import {
  canFixPaymentMethod,
  canUpgrade,
  type ServiceId,
  type SubscriptionValue,
} from '#shared/subscription/actions.ts';
import { type LifecycleAction, lifecycleActions } from '#shared/subscription/lifecycle.ts';
import { invoices, type SubscriptionRow, type UserRow } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';
import type { GatewaySubscription, PaymentGateway } from '../../platform/payments/gateway.ts';
import { upsertCard } from './apply-snapshots.ts';
import { ownCardRef } from './cards-service.ts';
import { type Catalog, presentProduct } from './catalog.ts';
import {
  currentSubscription,
  lastInvoiceFinalizing,
  presentSubscription,
} from './current-subscription.ts';
import { applyAnswer, readBackSubscription } from './gateway-events.ts';
import { customerRefFor, declined, priceFor } from './gateway-refs.ts';
import { once } from './idempotent.ts';

export function subscriptionValue(
  row: Pick<SubscriptionRow, 'status' | 'serviceId' | 'onetime'>,
): SubscriptionValue {
  return { status: row.status, service_id: row.serviceId as ServiceId, onetime: row.onetime };
}

const notAllowed = () => new AppError('conflict', { info: BILLING_MESSAGES.actionNotAllowed });

/** The user's current subscription and the gateway that runs it, or a 404/409 to answer. */
async function mine(
  app: App,
  user: UserRow,
): Promise<{ row: SubscriptionRow; gateway: PaymentGateway }> {
  const row = await currentSubscription(app.db, user.id);
  if (!row) throw new AppError('not_found', { info: BILLING_MESSAGES.noSubscription });
  const gateway = app.payments.get(row.gateway);
  if (!gateway) throw new AppError('unavailable', { info: BILLING_MESSAGES.serviceUnavailable });
  return { row, gateway };
}

async function answerWith(app: App, gateway: PaymentGateway, snapshot: GatewaySubscription) {
  const applied = await applyAnswer(app, gateway, { subscription: snapshot });
  const row = applied.subscription?.row;
  if (!row) throw new Error('the gateway answered a subscription we do not hold');
  return { subscription: await presentSubscription(app.db, row) };
}

/** Cancel at period end, undo that, pause, continue: asked of the gateway, applied at once. */
export async function subscriptionAction(
  app: App,
  user: UserRow,
  action: LifecycleAction,
): Promise<{ subscription: SubscriptionDetail }> {
  const { row, gateway } = await mine(app, user);
  const allowed = lifecycleActions({
    status: row.status,
    onetime: row.onetime,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    paymentMethodType: row.paymentMethodType,
  });
  if (!allowed[action]) throw notAllowed();
  const ref = row.gatewayRef;
  const snapshot =
    action === 'cancel'
      ? await gateway.cancel(ref, { atPeriodEnd: true })
      : action === 'resume'
        ? await gateway.resume(ref)
        : action === 'pause'
          ? await gateway.pause(ref)
          : await gateway.unpause(ref);
  return answerWith(app, gateway, snapshot);
}

async function changeTarget(app: App, catalog: Catalog, user: UserRow, productId: number) {
  const { row, gateway } = await mine(app, user);
  if (!canUpgrade(subscriptionValue(row), await lastInvoiceFinalizing(app.db, row.id)))
    throw notAllowed();
  const target = await catalog.findOnSale(productId, row.serviceId as ServiceId, row.currency);
  if (!target || target.row.additional) {
    throw AppError.field('product_id', BILLING_MESSAGES.productUnavailable);
  }
  if (target.row.id === row.productId) {
    throw AppError.field('product_id', BILLING_MESSAGES.samePlan);
  }
  // Any billing period will do (the gateway restarts the cycle on a change of period), but
  // a subscription stays recurring or one-time.
  if (target.row.onetime !== row.onetime) {
    throw AppError.field('product_id', BILLING_MESSAGES.productUnavailable);
  }
  return { row, gateway, target };
}

/** §2 upgrade-v2: what a plan change costs now and from the next renewal. */
export async function previewChange(
  app: App,
  catalog: Catalog,
  user: UserRow,
  productId: number,
): Promise<ChangePreviewResponse> {
  const { row, gateway, target } = await changeTarget(app, catalog, user, productId);
  const preview = await gateway.previewChange({
    subscriptionRef: row.gatewayRef,
    items: [await priceFor(app, gateway, target.row)],
    idempotencyKey: `preview:${row.id}:${productId}`,
  });
  return {
    currency: preview.currency,
    product: presentProduct(target),
    credit: preview.credit,
    charge: preview.charge,
    due: preview.due,
    next_amount: preview.nextAmount,
    // A change of billing period restarts the cycle: the next renewal is the new period's end.
    current_period_end: preview.periodEnd?.toISOString() ?? null,
  };
}

export function changePlan(
  app: App,
  catalog: Catalog,
  user: UserRow,
  productId: number,
  idempotencyKey: string,
): Promise<CheckoutResponse> {
  const request = {
    userId: user.id,
    key: `change:${user.id}:${idempotencyKey}`,
    input: { product_id: productId, idempotency_key: idempotencyKey },
  };
  return once(app, request, () => makeChange(app, catalog, user, productId, idempotencyKey));
}

async function makeChange(
  app: App,
  catalog: Catalog,
  user: UserRow,
  productId: number,
  idempotencyKey: string,
): Promise<CheckoutResponse> {
  const { row, gateway, target } = await changeTarget(app, catalog, user, productId);
  const outcome = await gateway.changePlan({
    subscriptionRef: row.gatewayRef,
    items: [await priceFor(app, gateway, target.row)],
    idempotencyKey: `change:${user.id}:${idempotencyKey}`,
  });
  if (outcome.kind === 'declined') throw declined(outcome.decline);
  const applied = await applyAnswer(app, gateway, {
    subscription: outcome.subscription,
    ...(outcome.kind === 'completed' && outcome.invoice ? { invoice: outcome.invoice } : {}),
  });
  return {
    status: outcome.kind === 'redirect' ? 'requires_action' : 'completed',
    subscription_id: applied.subscription?.row.id ?? row.id,
    invoice_id: applied.invoice?.row.id ?? null,
    redirect_url: outcome.kind === 'redirect' ? outcome.url : null,
  };
}

/**
 * §2 fix-payment-method: the open invoice of a subscription on hold (or failed) is paid with
 * a new card (saved and made the default) or a saved one; paid, the subscription is active
 * again. The same idempotency key pays once.
 */
export function fixPayment(
  app: App,
  user: UserRow,
  input: { token?: string | undefined; card_id?: string | undefined; idempotency_key: string },
): Promise<CheckoutResponse> {
  const request = { userId: user.id, key: `fix:${user.id}:${input.idempotency_key}`, input };
  return once(app, request, () => payOpenInvoice(app, user, input));
}

async function payOpenInvoice(
  app: App,
  user: UserRow,
  input: { token?: string | undefined; card_id?: string | undefined; idempotency_key: string },
): Promise<CheckoutResponse> {
  if (input.card_id) await ownCardRef(app, user.id, input.card_id);
  const { row, gateway } = await mine(app, user);
  if (!canFixPaymentMethod(subscriptionValue(row))) throw notAllowed();
  const [open] = await app.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.subscriptionId, row.id), eq(invoices.status, 'open')))
    .orderBy(desc(invoices.issuedAt))
    .limit(1);
  if (!open) throw new AppError('conflict', { info: BILLING_MESSAGES.nothingToPay });
  const cardRef = await cardToCharge(app, gateway, user, input);
  const outcome = await gateway.payInvoice(open.gatewayRef, {
    paymentMethodRef: cardRef,
    idempotencyKey: `fix:${user.id}:${input.idempotency_key}`,
  });
  if (outcome.kind === 'redirect') {
    return {
      status: 'requires_action',
      subscription_id: row.id,
      invoice_id: open.id,
      redirect_url: outcome.url,
    };
  }
  await applyAnswer(app, gateway, { invoice: outcome.invoice });
  if (outcome.kind === 'declined') throw declined(outcome.decline);
  await readBackSubscription(app, gateway, row.gatewayRef);
  await app.db.update(invoices).set({ nextAttemptAt: null }).where(eq(invoices.id, open.id));
  return { status: 'completed', subscription_id: row.id, invoice_id: open.id, redirect_url: null };
}

/** A new card from a token (saved, made the default), or one of the user's saved cards. */
export async function cardToCharge(
  app: App,
  gateway: PaymentGateway,
  user: UserRow,
  input: { token?: string | undefined; card_id?: string | undefined },
): Promise<string> {
  if (input.token) {
    if (!gateway.cards) throw AppError.field('card', BILLING_MESSAGES.serviceUnavailable);
    const customerRef = await customerRefFor(app, gateway, user);
    const added = await gateway.cards.add(customerRef, input.token, { makeDefault: true });
    if (added.kind === 'declined') throw declined(added.decline);
    await app.db.transaction((tx) => upsertCard(tx, gateway.name, user.id, added.card));
    return added.card.ref;
  }
  if (input.card_id) return ownCardRef(app, user.id, input.card_id);
  throw AppError.field('card', 'input_errors.field_is_required');
}
