import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  BILLING_MESSAGES,
  type BillingAddress,
  type CheckoutResponse,
  type checkoutRequest,
} from '#shared/contracts/billing.ts';
import { canBonusUpgrade, canReactivate } from '#shared/subscription/actions.ts';
import { type UserRow, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';
import { ownCardRef, syncCards } from './cards-service.ts';
import type { Catalog } from './catalog.ts';
import { giveBackCouponUse, takeCouponUse } from './coupon-uses.ts';
import { currentSubscription } from './current-subscription.ts';
import { applyAnswer } from './gateway-events.ts';
import { customerRefFor, declined, priceFor } from './gateway-refs.ts';
import { once, oneAtATime } from './idempotent.ts';
import { buildOrder, gatewayDiscount } from './order.ts';
import { subscriptionValue } from './subscription-actions.ts';

type CheckoutBody = z.output<typeof checkoutRequest>;

/** Which door the order came through: §2 order-v2, reactivate-v2 or bonus-upgrade. */
export type OrderKind = 'new' | 'reactivate' | 'bonus';

const RUNNING = new Set(['active', 'canceled', 'paused', 'on_hold']);

/**
 * Buying a plan: the order is checked, the gateway subscribes the customer and charges the
 * first invoice (once per idempotency key, however often the button is pressed), and what it
 * answers is applied at once, so the thanks page has it before the webhook arrives.
 */
export function checkout(
  app: App,
  catalog: Catalog,
  user: UserRow,
  body: CheckoutBody,
  kind: OrderKind,
): Promise<CheckoutResponse> {
  // The three order doors share the key's scope: one key is one order, through one door.
  const request = {
    userId: user.id,
    key: `checkout:${user.id}:${body.idempotency_key}`,
    input: { kind, body },
  };
  return once(app, request, () =>
    oneAtATime(app, user.id, () => placeOrder(app, catalog, user, body, kind)),
  );
}

async function placeOrder(
  app: App,
  catalog: Catalog,
  user: UserRow,
  body: CheckoutBody,
  kind: OrderKind,
): Promise<CheckoutResponse> {
  // A saved card is the customer's own, or none (never another customer's card).
  const savedCard = body.payment.card_id
    ? await ownCardRef(app, user.id, body.payment.card_id)
    : null;
  const current = await currentSubscription(app.db, user.id);
  const value = current ? subscriptionValue(current) : null;
  if (kind === 'new' && current && RUNNING.has(current.status)) {
    throw new AppError('conflict', { info: BILLING_MESSAGES.alreadySubscribed });
  }
  if (kind === 'reactivate' && !canReactivate(value)) {
    throw new AppError('conflict', { info: BILLING_MESSAGES.actionNotAllowed });
  }
  if (kind === 'bonus' && !canBonusUpgrade(value)) {
    throw new AppError('conflict', { info: BILLING_MESSAGES.actionNotAllowed });
  }
  const order = await buildOrder(
    { db: app.db, catalog, payments: app.payments },
    body,
    app.payments.clock.now(),
  );
  if (body.payment.service_id !== order.serviceId) {
    throw AppError.field('payment.service_id', BILLING_MESSAGES.serviceUnavailable);
  }
  const gateway = app.payments.forService(order.serviceId);
  if (!gateway) throw AppError.field('product_id', BILLING_MESSAGES.serviceUnavailable);
  if (body.billing_address) await saveBillingAddress(app, user.id, body.billing_address);
  const customerRef = await customerRefFor(app, gateway, user);
  const items = [];
  for (const product of [order.plan, ...order.addons])
    items.push(await priceFor(app, gateway, product));
  const base = `${app.config.appUrl}/${body.lang}`;
  // The coupon's use is taken before the charge and given back when nothing was bought
  // (coupon-uses.ts); the redemption is recorded once the subscription runs.
  const hold = order.coupon ? await takeCouponUse(app, order.coupon.id, user.id) : null;
  let outcome: Awaited<ReturnType<typeof gateway.startSubscription>>;
  try {
    outcome = await gateway.startSubscription({
      customerRef,
      items,
      discount: gatewayDiscount(order.coupon),
      paymentToken: body.payment.token ?? null,
      paymentMethodRef: savedCard,
      // The thanks page waits for the subscription, or offers the order again when the bank
      // did not confirm.
      returnUrl: `${base}/order-received/thanks`,
      cancelUrl: `${base}/order-v2?plan=${order.plan.id}`,
      idempotencyKey: `checkout:${user.id}:${body.idempotency_key}`,
      metadata: { userId: String(user.id), kind },
    });
  } catch (error) {
    if (hold) await giveBackCouponUse(app, hold);
    throw error;
  }
  if (outcome.kind === 'declined') {
    if (hold) await giveBackCouponUse(app, hold);
    throw declined(outcome.decline);
  }
  if (outcome.kind === 'redirect') {
    if (outcome.subscription)
      await applyAnswer(app, gateway, { subscription: outcome.subscription });
    return {
      status: 'requires_action',
      subscription_id: null,
      invoice_id: null,
      redirect_url: outcome.url,
    };
  }
  const applied = await applyAnswer(app, gateway, {
    subscription: outcome.subscription,
    invoice: outcome.invoice,
  });
  // The card the order saved at the gateway, before its webhook says so.
  await syncCards(app, gateway, user.id, customerRef);
  return {
    status: 'completed',
    subscription_id: applied.subscription?.row.id ?? null,
    invoice_id: applied.invoice?.row.id ?? null,
    redirect_url: null,
  };
}

export async function saveBillingAddress(
  app: App,
  userId: number,
  address: BillingAddress,
): Promise<void> {
  await app.db.update(users).set({ billingAddress: address }).where(eq(users.id, userId));
}
