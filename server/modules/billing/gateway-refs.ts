import { and, desc, eq, sql } from 'drizzle-orm';
import { BILLING_MESSAGES } from '#shared/contracts/billing.ts';
import {
  gatewayCustomers,
  gatewayPrices,
  type ProductRow,
  type UserRow,
} from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';
import {
  type GatewayDecline,
  type GatewayPrice,
  GatewayRequestError,
  type PaymentGateway,
} from '../../platform/payments/gateway.ts';

/** Our user at the gateway, made there on their first order and remembered. */
export async function customerRefFor(
  app: App,
  gateway: PaymentGateway,
  user: UserRow,
): Promise<string> {
  const [known] = await app.db
    .select({ ref: gatewayCustomers.customerRef })
    .from(gatewayCustomers)
    .where(and(eq(gatewayCustomers.userId, user.id), eq(gatewayCustomers.gateway, gateway.name)));
  if (known) return known.ref;
  const ref = await gateway.ensureCustomer({
    userId: user.id,
    email: user.email,
    name: user.name ?? user.username,
  });
  await app.db
    .insert(gatewayCustomers)
    .values({ userId: user.id, gateway: gateway.name, customerRef: ref })
    .onConflictDoNothing();
  // Two first orders at once: the one stored is the customer's, whichever made it.
  const [stored] = await app.db
    .select({ ref: gatewayCustomers.customerRef })
    .from(gatewayCustomers)
    .where(and(eq(gatewayCustomers.userId, user.id), eq(gatewayCustomers.gateway, gateway.name)));
  return stored?.ref ?? ref;
}

/** A product as the gateway's price, created there when it has none (or its price changed). */
export async function priceFor(
  app: App,
  gateway: PaymentGateway,
  product: ProductRow,
): Promise<GatewayPrice> {
  const [known] = await app.db
    .select({ ref: gatewayPrices.priceRef })
    .from(gatewayPrices)
    .where(and(eq(gatewayPrices.productId, product.id), eq(gatewayPrices.gateway, gateway.name)))
    .orderBy(desc(gatewayPrices.createdAt))
    .limit(1);
  const price: GatewayPrice = {
    productId: product.id,
    ref: known?.ref ?? null,
    name: product.name,
    amount: product.amount,
    currency: product.currency,
    interval: product.interval,
    intervalCount: product.intervalCount,
    onetime: product.onetime,
  };
  const ref = await gateway.ensurePrice(price);
  if (ref !== price.ref) {
    // Added beside the old one, which subscriptions made on it still name.
    await app.db
      .insert(gatewayPrices)
      .values({ productId: product.id, gateway: gateway.name, priceRef: ref })
      .onConflictDoUpdate({
        target: [gatewayPrices.gateway, gatewayPrices.priceRef],
        set: { createdAt: sql`now()` },
      });
  }
  return { ...price, ref };
}

const DECLINE_MESSAGES: Record<string, string> = {
  card_declined: BILLING_MESSAGES.cardDeclined,
  insufficient_funds: BILLING_MESSAGES.insufficientFunds,
  expired_card: BILLING_MESSAGES.cardExpired,
  authentication_failed: BILLING_MESSAGES.authenticationFailed,
  authentication_required: BILLING_MESSAGES.authenticationFailed,
  card_number_invalid: BILLING_MESSAGES.cardNumberInvalid,
  card_expiry_invalid: BILLING_MESSAGES.cardExpiryInvalid,
  card_cvc_invalid: BILLING_MESSAGES.cardCvcInvalid,
};

/**
 * A gateway's refusal of the request itself, as the customer's error: a stale card token
 * under the card field, an action the subscription's state no longer allows as a conflict.
 */
export function gatewayRequestError(error: unknown): unknown {
  if (!(error instanceof GatewayRequestError)) return error;
  if (error.kind === 'invalid_state')
    return new AppError('conflict', { info: BILLING_MESSAGES.actionNotAllowed });
  return AppError.field('card', BILLING_MESSAGES.processingError);
}

/** A gateway's refusal as the message under the card field. */
export function declined(decline: GatewayDecline): AppError {
  return AppError.field('card', DECLINE_MESSAGES[decline.code] ?? BILLING_MESSAGES.processingError);
}
