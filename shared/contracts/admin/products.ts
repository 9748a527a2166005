import { z } from 'zod';
import { BILLING_INTERVALS, GATEWAY_NAMES } from '../../billing/billing-values.ts';
import { SERVICE_ID_LIST } from '../../subscription/actions.ts';
import { recordId, recordIdNumber } from '../../validation/record-id.ts';
import { DEFAULT_DEVICE_LIMIT } from '../../vpn/fleet-rules.ts';
import { productView } from '../billing.ts';
import { endpoint } from '../endpoint.ts';
import { booleanFilter, listResponse, pagingQuery, searchFilter, sortQuery } from '../list.ts';

// §2 /admin/payment-gateways/{stripe|paypal|iap|cryptomus}/products, the addons' modules and
// products, /admin/order/manage-plans; §7 dashboard /products, /services,
// /includable-products. Admin only, while the billing flag is on. A change reaches the order
// page within the catalog's cache time (§9, server/modules/billing/catalog.ts).

const invalid = { error: 'input_errors.field_is_invalid' };
const required = { error: 'input_errors.field_is_required' };
const serviceId = z.literal(SERVICE_ID_LIST, invalid);
const money = z.number(invalid).int(invalid).min(0, invalid).max(100_000_000, invalid);

/** Message keys these calls answer with (staff's own texts, admin-catalog.json). */
export const PRODUCT_MESSAGES = {
  /** Refused delete: running subscriptions (as plan or addon) still use the product. */
  inUse: 'staff_catalog.errors.in_use',
  /** PayPal bills subscriptions only. */
  renewsOnly: 'staff_catalog.errors.renews_only',
  /** Cryptomus sells one period at a time. */
  onetimeOnly: 'staff_catalog.errors.onetime_only',
  /** The addon offered beside a plan is an addon of the same service and currency. */
  addonMismatch: 'staff_catalog.errors.addon_mismatch',
  includableNotAddon: 'staff_catalog.errors.includable_not_addon',
  /** Plans name this addon (offered beside them or included): it stays an addon as it is. */
  addonInUse: 'staff_catalog.errors.addon_in_use',
  notIncludable: 'staff_catalog.errors.not_includable',
  plansOnly: 'staff_catalog.errors.plans_only',
  mergeSame: 'staff_catalog.errors.merge_same',
  mergeMismatch: 'staff_catalog.errors.merge_mismatch',
  mostSelectedTwice: 'staff_catalog.errors.most_selected_twice',
} as const;

/** §3 Product as staff see it: the order page's fields and what staff need beside them. */
export const adminProduct = productView
  .extend({
    /** The gateways' ids of this product (Stripe price, PayPal plan, App Store product id). */
    gateway_prices: z.array(z.object({ gateway: z.enum(GATEWAY_NAMES), price_ref: z.string() })),
    /** WireGuard devices the plan allows its holder (each family member has their own). */
    device_limit: z.number().int(),
    /** Subscriptions that use it and still run (active, paused, canceled, on hold). */
    active_subscriptions: z.number().int(),
    created_at: z.iso.datetime({ offset: true }),
    updated_at: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'AdminProduct' });
export type AdminProduct = z.infer<typeof adminProduct>;

/**
 * Which products a list shows: plans; addons sold beside a plan (`additional`); the
 * includable modules plans may bundle (`includable`).
 */
export const PRODUCT_KINDS = ['plans', 'addons', 'includable'] as const;
export type ProductKind = (typeof PRODUCT_KINDS)[number];

export const PRODUCT_SORTS = ['sort', 'name', 'amount', 'created_at'] as const;

export const adminProductsQuery = pagingQuery
  .merge(sortQuery(PRODUCT_SORTS, 'sort', 'asc'))
  .extend({
    service_id: z.coerce.number().pipe(serviceId).optional(),
    kind: z.enum(PRODUCT_KINDS, invalid).optional(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, invalid)
      .optional(),
    visible: booleanFilter,
    disabled: booleanFilter,
    onetime: booleanFilter,
    search: searchFilter,
  });
export type AdminProductsQuery = z.infer<typeof adminProductsQuery>;

/** Every §3 Product field staff set. `service_id` is fixed once created. */
export const productFields = z.object({
  plan: z
    .string(required)
    .trim()
    .min(1, required)
    .max(40, { error: 'input_errors.field_is_too_long' })
    .regex(/^[a-z0-9][a-z0-9_-]*$/, invalid),
  name: z
    .string(required)
    .trim()
    .min(1, required)
    .max(120, { error: 'input_errors.field_is_too_long' }),
  description: z.string().trim().max(2000, { error: 'input_errors.field_is_too_long' }).default(''),
  amount: money,
  amount_old: money.nullable().default(null),
  currency: z.string(required).regex(/^[A-Z]{3}$/, invalid),
  /**
   * How long a period runs; for a one-time product the period it buys. Every gateway needs
   * one (Cryptomus and Stripe's one-time purchases run for it), so the server requires it;
   * nullable only for older callers.
   */
  interval: z.enum(BILLING_INTERVALS, invalid).nullable(),
  interval_count: z.number(invalid).int(invalid).min(1, invalid).max(36, invalid).default(1),
  onetime: z.boolean().default(false),
  visible: z.boolean().default(true),
  disabled: z.boolean().default(false),
  sort: z.number(invalid).int(invalid).min(0, invalid).max(100_000, invalid).default(0),
  as_monthly_rate: z.boolean().default(false),
  discounted_badge: z.boolean().default(false),
  as_most_selected: z.boolean().default(false),
  additional: z.boolean().default(false),
  includable: z.boolean().default(false),
  /** The addon the order page offers beside this plan. */
  additional_product: recordIdNumber.nullable().default(null),
  family_seats: z.number(invalid).int(invalid).min(0, invalid).max(20, invalid).default(0),
  /** WireGuard devices the plan allows its holder (each family member has their own). */
  device_limit: z
    .number(invalid)
    .int(invalid)
    .min(1, invalid)
    .max(1000, invalid)
    .default(DEFAULT_DEVICE_LIMIT),
});

export const productCreateRequest = productFields.extend({ service_id: serviceId });
export type ProductCreateRequest = z.infer<typeof productCreateRequest>;

export const productUpdateRequest = productFields.extend({ product_id: recordIdNumber });
export type ProductUpdateRequest = z.infer<typeof productUpdateRequest>;

/** What a mass update may change on each product (§2 manage plans, the lists' bulk actions). */
export const productMassChange = z.object({
  product_id: recordIdNumber,
  visible: z.boolean().optional(),
  disabled: z.boolean().optional(),
  sort: z.number(invalid).int(invalid).min(0, invalid).max(100_000, invalid).optional(),
  amount: money.optional(),
  amount_old: money.nullable().optional(),
  as_monthly_rate: z.boolean().optional(),
  discounted_badge: z.boolean().optional(),
  as_most_selected: z.boolean().optional(),
});
export type ProductMassChange = z.infer<typeof productMassChange>;

export const productMassUpdateRequest = z.object({
  items: z.array(productMassChange).min(1, required).max(200, invalid),
});

export const productIdInput = z.object({ product_id: recordIdNumber });

/**
 * Folds `from` into `into` (same service, currency and billing period): what named `from`
 * (subscriptions, invoice lines, coupons, the gateways' prices) names `into`; `from` is
 * deleted.
 */
export const productMergeRequest = z.object({
  from_product_id: recordIdNumber,
  into_product_id: recordIdNumber,
});

export const includesUpdateRequest = z.object({
  product_id: recordIdNumber,
  includable_product_ids: z.array(recordIdNumber).max(20, invalid),
});

/** §7 GET /services: each payment service, the gateway selling it, and its catalog. */
export const adminService = z
  .object({
    service_id: serviceId,
    /** The gateway selling it now; null when none is configured (its products are hidden). */
    gateway: z.enum(GATEWAY_NAMES).nullable(),
    selling: z.boolean(),
    products: z.number().int(),
    visible_products: z.number().int(),
    currencies: z.array(z.string()),
  })
  .meta({ id: 'AdminService' });
export type AdminService = z.infer<typeof adminService>;

const productResponse = z.object({ product: adminProduct });
const productsResponse = z.object({ items: z.array(adminProduct) });

const admin = {
  base: 'dashboard',
  access: { permission: 'commerce' },
  feature: 'billing',
  tag: 'products',
} as const;

export const productEndpoints = {
  list: endpoint({
    ...admin,
    method: 'GET',
    path: '/products',
    summary: 'Products of a service, filtered, sorted and paged',
    query: adminProductsQuery,
    response: listResponse(adminProduct),
  }),
  services: endpoint({
    ...admin,
    method: 'GET',
    path: '/services',
    summary: 'Each payment service, its gateway and its catalog',
    response: z.object({ items: z.array(adminService) }),
  }),
  includable: endpoint({
    ...admin,
    method: 'GET',
    path: '/includable-products',
    summary: 'The addons plans may include',
    query: z.object({
      service_id: z.coerce.number().pipe(serviceId).optional(),
      currency: z
        .string()
        .regex(/^[A-Z]{3}$/, invalid)
        .optional(),
    }),
    response: productsResponse,
  }),
  view: endpoint({
    ...admin,
    method: 'GET',
    path: '/products/view',
    summary: 'One product',
    query: z.object({ product_id: recordId }),
    response: productResponse,
  }),
  getIn: endpoint({
    ...admin,
    method: 'GET',
    path: '/products/get-in',
    summary: 'Products by their ids (comma-separated), for pickers',
    query: z.object({
      ids: z
        .string()
        .regex(/^\d+(,\d+){0,99}$/, invalid)
        .transform((value) => value.split(',').map(Number))
        .pipe(z.array(recordIdNumber)),
    }),
    response: productsResponse,
  }),
  create: endpoint({
    ...admin,
    method: 'POST',
    path: '/products/create',
    summary: 'Adds a product to a service',
    body: productCreateRequest,
    response: productResponse,
    status: 201,
  }),
  update: endpoint({
    ...admin,
    method: 'POST',
    path: '/products/update',
    summary: "Changes a product's fields",
    body: productUpdateRequest,
    response: productResponse,
  }),
  delete: endpoint({
    ...admin,
    method: 'POST',
    path: '/products/delete',
    summary: 'Deletes a product no running subscription uses',
    body: productIdInput,
    response: z.object({ success: z.literal(true) }),
  }),
  merge: endpoint({
    ...admin,
    method: 'POST',
    path: '/products/merge',
    summary: 'Folds one product into another of the same service, currency and period',
    body: productMergeRequest,
    response: productResponse,
  }),
  massUpdate: endpoint({
    ...admin,
    method: 'POST',
    path: '/products/mass-update',
    summary: 'Changes visibility, order, prices and badges of several products at once',
    body: productMassUpdateRequest,
    response: productsResponse,
  }),
  includesUpdate: endpoint({
    ...admin,
    method: 'POST',
    path: '/includable-products/update',
    summary: 'Sets the addons a plan includes',
    tag: 'products',
    body: includesUpdateRequest,
    response: productResponse,
  }),
};
