import { eq } from 'drizzle-orm';
import { discountedPeriods, type OrderTotals, orderTotals } from '#shared/billing/pricing.ts';
import { BILLING_MESSAGES, type QuoteResponse } from '#shared/contracts/billing.ts';
import type { ServiceId } from '#shared/subscription/actions.ts';
import type { Database } from '../../db/client.ts';
import { type CouponRow, type ProductRow, products } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { PaymentGateways } from '../../platform/payments/payments-plugin.ts';
import type { Catalog } from './catalog.ts';
import { couponTerms, usableCoupon } from './coupon-check.ts';

export interface OrderSelection {
  product_id: number;
  addon_ids: number[];
  coupon?: string | undefined;
}

/** An order checked against the catalog: what will be charged, and for what. */
export interface Order {
  plan: ProductRow;
  addons: ProductRow[];
  coupon: CouponRow | null;
  currency: string;
  serviceId: ServiceId;
  totals: OrderTotals;
}

const unavailable = () => AppError.field('product_id', BILLING_MESSAGES.productUnavailable);

/**
 * Checks an order: the plan is on sale (visible, enabled, a plan rather than an addon, on a
 * service some gateway sells now), every addon is an addon on sale in the same service and
 * currency (one the plan includes costs nothing and is dropped), and the coupon is usable.
 */
export async function buildOrder(
  deps: { db: Database; catalog: Catalog; payments: PaymentGateways },
  selection: OrderSelection,
  now: Date,
): Promise<Order> {
  const [row] = await deps.db
    .select()
    .from(products)
    .where(eq(products.id, selection.product_id))
    .limit(1);
  if (!row) throw unavailable();
  const serviceId = row.serviceId as ServiceId;
  const plan = await deps.catalog.findOnSale(row.id, serviceId, row.currency);
  if (!plan || plan.row.additional) throw unavailable();
  const gateway = deps.payments.forService(serviceId);
  if (!gateway) throw AppError.field('product_id', BILLING_MESSAGES.serviceUnavailable);
  if (selection.coupon && gateway.takesCoupons === false) {
    throw AppError.field('coupon', BILLING_MESSAGES.couponNotForService);
  }
  const addons: ProductRow[] = [];
  for (const addonId of new Set(selection.addon_ids)) {
    if (plan.includes.includes(addonId)) continue;
    const addon = await deps.catalog.findOnSale(addonId, serviceId, row.currency);
    // An addon renews with its plan: one of another period would be billed at the wrong rate.
    if (!addon?.row.additional || !samePeriod(addon.row, plan.row)) {
      throw AppError.field('addon_ids', BILLING_MESSAGES.productUnavailable);
    }
    addons.push(addon.row);
  }
  const ids = [plan.row.id, ...addons.map((addon) => addon.id)];
  const coupon = selection.coupon ? await usableCoupon(deps.db, selection.coupon, ids, now) : null;
  const lines = [plan.row, ...addons].map((product) => ({
    productId: product.id,
    description: product.name,
    amount: product.amount,
  }));
  return {
    plan: plan.row,
    addons,
    coupon,
    currency: row.currency,
    serviceId,
    totals: orderTotals(lines, row.currency, coupon ? couponTerms(coupon) : null),
  };
}

/** Whether two products renew on the same period (a month, a year, two years). */
export function samePeriod(
  a: Pick<ProductRow, 'interval' | 'intervalCount' | 'onetime'>,
  b: Pick<ProductRow, 'interval' | 'intervalCount' | 'onetime'>,
): boolean {
  return (
    a.interval === b.interval && a.intervalCount === b.intervalCount && a.onetime === b.onetime
  );
}

export function presentQuote(order: Order): QuoteResponse {
  const { coupon } = order;
  return {
    currency: order.currency,
    lines: [order.plan, ...order.addons].map((product) => ({
      product_id: product.id,
      description: product.name,
      amount: product.amount,
    })),
    subtotal: order.totals.subtotal,
    discount: order.totals.discount,
    tax: order.totals.tax,
    total: order.totals.total,
    coupon: coupon
      ? {
          code: coupon.code,
          name: coupon.name,
          percent_off: coupon.percentOff,
          amount_off: coupon.amountOff,
          currency: coupon.currency,
          duration: coupon.duration,
          duration_in_months: coupon.durationInMonths,
        }
      : null,
  };
}

/** The discount as a gateway takes it. */
export function gatewayDiscount(coupon: CouponRow | null) {
  if (!coupon) return null;
  return {
    code: coupon.code,
    percentOff: coupon.percentOff,
    amountOff: coupon.amountOff,
    periods: discountedPeriods(couponTerms(coupon)),
  };
}
