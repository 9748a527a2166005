import type { ServiceId } from '../subscription/actions.ts';

// The fixed vocabularies of billing, free of zod like the other rules both sides read: the
// database's enums, the contracts' schemas and the screens all take them from here.

/** How often a plan renews (§3 Product interval, with interval_count). */
export const BILLING_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

/**
 * An invoice's life: drafted, finalizing while the gateway works on it (§3 "last invoice
 * finalizing"), then open (owed), paid, void or uncollectible. Refunds are amounts on a paid
 * invoice, not a status of their own.
 */
export const INVOICE_STATUSES = [
  'draft',
  'finalizing',
  'open',
  'paid',
  'void',
  'uncollectible',
] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const PAYMENT_STATUSES = ['pending', 'requires_action', 'succeeded', 'failed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Once, for some months, or for as long as the subscription lasts. */
export const COUPON_DURATIONS = ['once', 'repeating', 'forever'] as const;
export type CouponDuration = (typeof COUPON_DURATIONS)[number];

/** Why someone may use the VPN (the entitlement ledger). */
export const ENTITLEMENT_SOURCES = ['subscription', 'bonus', 'family', 'manual'] as const;
export type EntitlementSource = (typeof ENTITLEMENT_SOURCES)[number];

/**
 * The payment gateways behind the one PaymentGateway interface, and the §9 service each
 * serves. The sandbox stands in for a card processor (service 1) where no real one is
 * configured, as in the embedded default.
 */
export const GATEWAYS = {
  sandbox: 1,
  stripe: 1,
  paypal: 2,
  appstore: 4,
  bonus: 5,
  cryptomus: 6,
} as const satisfies Record<string, ServiceId>;
export type GatewayName = keyof typeof GATEWAYS;
export const GATEWAY_NAMES = Object.keys(GATEWAYS) as [GatewayName, ...GatewayName[]];

/** How a subscription is paid (§3 payment_method.type). */
export const PAYMENT_METHOD_TYPES = ['card', 'paypal', 'in_app', 'crypto', 'bonus'] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];
