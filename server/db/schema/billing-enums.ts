import { pgEnum } from 'drizzle-orm/pg-core';
import {
  BILLING_INTERVALS,
  COUPON_DURATIONS,
  ENTITLEMENT_SOURCES,
  GATEWAY_NAMES,
  INVOICE_STATUSES,
  PAYMENT_METHOD_TYPES,
  PAYMENT_STATUSES,
} from '#shared/billing/billing-values.ts';
import { SUBSCRIPTION_STATUSES } from '#shared/subscription/actions.ts';

// Billing's enums, each from its one list in shared/billing/billing-values.ts.
export const billingInterval = pgEnum('billing_interval', BILLING_INTERVALS);
export const subscriptionStatus = pgEnum('subscription_status', SUBSCRIPTION_STATUSES);
export const invoiceStatus = pgEnum('invoice_status', INVOICE_STATUSES);
export const paymentStatus = pgEnum('payment_status', PAYMENT_STATUSES);
export const couponDuration = pgEnum('coupon_duration', COUPON_DURATIONS);
export const entitlementSource = pgEnum('entitlement_source', ENTITLEMENT_SOURCES);
export const gatewayName = pgEnum('gateway_name', GATEWAY_NAMES);
export const paymentMethodType = pgEnum('payment_method_type', PAYMENT_METHOD_TYPES);
