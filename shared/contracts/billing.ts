import { z } from 'zod';
import {
  BILLING_INTERVALS,
  COUPON_DURATIONS,
  GATEWAY_NAMES,
  INVOICE_STATUSES,
  PAYMENT_METHOD_TYPES,
} from '../billing/billing-values.ts';
import { LANGS } from '../locales.ts';
import { SERVICE_ID_LIST, SUBSCRIPTION_STATUSES } from '../subscription/actions.ts';
import { recordId } from '../validation/record-id.ts';
import { authUser } from './auth-user.ts';
import { endpoint } from './endpoint.ts';
import { listResponse, pagingQuery } from './list.ts';

// §7 "Not shown" billing calls (products, services, includables, invoices, current
// subscription, create/change/fix/upgrade-bonus/cancel/resume/continue subscription, card
// sources, payment method, billing address), designed here, and the §7 account calls on
// users/billing-address and users/set-source-as-default. Money is integer minor units of
// an ISO currency (shared/money.ts).

/** Message keys billing answers with, named once for the server and the screens. */
export const BILLING_MESSAGES = {
  productUnavailable: 'billing_errors.product_unavailable',
  serviceUnavailable: 'billing_errors.service_unavailable',
  couponUnknown: 'billing_errors.coupon_unknown',
  couponExpired: 'billing_errors.coupon_expired',
  couponUsedUp: 'billing_errors.coupon_used_up',
  couponNotForProduct: 'billing_errors.coupon_not_for_product',
  couponNotForService: 'billing_errors.coupon_not_for_service',
  cardDeclined: 'billing_errors.card_declined',
  insufficientFunds: 'billing_errors.insufficient_funds',
  cardExpired: 'billing_errors.card_expired',
  cardNumberInvalid: 'billing_errors.card_number_invalid',
  cardExpiryInvalid: 'billing_errors.card_expiry_invalid',
  cardCvcInvalid: 'billing_errors.card_cvc_invalid',
  authenticationFailed: 'billing_errors.authentication_failed',
  processingError: 'billing_errors.processing_error',
  alreadySubscribed: 'billing_errors.already_subscribed',
  noSubscription: 'billing_errors.no_subscription',
  actionNotAllowed: 'billing_errors.action_not_allowed',
  samePlan: 'billing_errors.same_plan',
  orderInProgress: 'billing_errors.order_in_progress',
  cardNotFound: 'billing_errors.card_not_found',
  cardInUse: 'billing_errors.card_in_use',
  invoiceNotFound: 'billing_errors.invoice_not_found',
  nothingToPay: 'billing_errors.nothing_to_pay',
} as const;

const money = z.number().int();
const currency = z.string().regex(/^[A-Z]{3}$/);
const isoDate = z.iso.datetime({ offset: true });
const serviceId = z.literal(SERVICE_ID_LIST);
const id = recordId;

/** §3 Product, as the order page and membership show it. */
export const productView = z
  .object({
    product_id: z.number().int(),
    service_id: serviceId,
    plan: z.string(),
    name: z.string(),
    description: z.string(),
    amount: money,
    amount_old: money.nullable(),
    currency,
    interval: z.enum(BILLING_INTERVALS).nullable(),
    interval_count: z.number().int(),
    visible: z.boolean(),
    disabled: z.boolean(),
    sort: z.number().int(),
    as_monthly_rate: z.boolean(),
    discounted_badge: z.boolean(),
    as_most_selected: z.boolean(),
    additional: z.boolean(),
    onetime: z.boolean(),
    includable: z.boolean(),
    /** The addons this plan includes in its price. */
    includable_product_id: z.array(z.number().int()),
    /** The addon offered beside this plan. */
    additional_product: z.number().int().nullable(),
    family_seats: z.number().int(),
    /** The price of one month, for as_monthly_rate. */
    monthly_amount: money,
    /** The saving against amount_old in whole percent, for discounted_badge (0: none). */
    saving_percent: z.number().int(),
  })
  .meta({ id: 'Product' });
export type ProductView = z.infer<typeof productView>;

/**
 * §3 "crypto approval pending": a crypto payment the network has seen but not yet confirmed.
 * Nothing is granted until it is; the thanks and order pages say so instead of offering to
 * pay again.
 */
export const pendingPaymentResponse = z.object({
  crypto_approval_pending: z.boolean(),
  pending: z
    .object({
      invoice_id: z.number().int(),
      service_id: serviceId,
      amount: money,
      currency,
      since: z.iso.datetime(),
    })
    .nullable(),
});
export type PendingPaymentResponse = z.infer<typeof pendingPaymentResponse>;

/** §3 Payment method flags of one service, as the order page offers it. */
export const serviceView = z
  .object({
    service_id: serviceId,
    payment_method_type: z.enum(PAYMENT_METHOD_TYPES),
    /** How the page collects the payment: its own card form, or a hop to the provider. */
    checkout: z.enum(['card_form', 'redirect']),
    /** The card form's tokenizer (the sandbox's stand-in for Stripe.js), for card_form. */
    tokenize_url: z.string().nullable(),
    google_pay: z.boolean(),
    apple_pay: z.boolean(),
    crypto_processing: z.boolean(),
  })
  .meta({ id: 'BillingService' });
export type ServiceView = z.infer<typeof serviceView>;

export const servicesResponse = z.object({ items: z.array(serviceView) });

export const productsQuery = z.object({
  service_id: z.coerce.number().pipe(serviceId).optional(),
  currency: currency.optional(),
});
export const productsResponse = z.object({
  currency,
  items: z.array(productView),
});
export type ProductsResponse = z.infer<typeof productsResponse>;

const couponCode = z.string().trim().max(64);

/** An order: the plan, addons beside it, a coupon. */
export const orderSelection = z.object({
  product_id: id,
  addon_ids: z.array(id).max(10).default([]),
  coupon: couponCode.optional(),
});

export const couponView = z
  .object({
    code: z.string(),
    name: z.string(),
    percent_off: z.number().int().nullable(),
    amount_off: money.nullable(),
    currency: currency.nullable(),
    duration: z.enum(COUPON_DURATIONS),
    duration_in_months: z.number().int().nullable(),
  })
  .meta({ id: 'Coupon' });

export const quoteLine = z.object({
  product_id: z.number().int(),
  description: z.string(),
  amount: money,
});

/** What an order will cost; a bad coupon is a 422 under `coupon`. */
export const quoteResponse = z.object({
  currency,
  lines: z.array(quoteLine),
  subtotal: money,
  discount: money,
  tax: money,
  total: money,
  coupon: couponView.nullable(),
});
export type QuoteResponse = z.infer<typeof quoteResponse>;

/** A billing address (§3 users_billing_address): printed on invoices as the buyer's. */
export const billingAddress = z
  .object({
    name: z.string().trim().max(200).default(''),
    company: z.string().trim().max(200).default(''),
    line1: z.string().trim().max(200).default(''),
    line2: z.string().trim().max(200).default(''),
    city: z.string().trim().max(100).default(''),
    postal_code: z.string().trim().max(20).default(''),
    region: z.string().trim().max(100).default(''),
    country: z
      .string()
      .trim()
      .regex(/^([A-Z]{2})?$/)
      .default(''),
    vat_id: z.string().trim().max(32).default(''),
  })
  .meta({ id: 'BillingAddress' });
export type BillingAddress = z.infer<typeof billingAddress>;

/** How the customer pays: a card token from the card form, a saved card, or the provider. */
export const paymentInput = z.object({
  service_id: serviceId,
  /** From the card form's tokenizer. */
  token: z.string().max(200).optional(),
  /** A card already saved. */
  card_id: z.string().max(200).optional(),
});

export const checkoutRequest = orderSelection.extend({
  payment: paymentInput,
  billing_address: billingAddress.optional(),
  /** One per order attempt, made by the page: a second click or a retry charges once. */
  idempotency_key: z.uuid(),
  lang: z.enum(LANGS).default('en'),
});
export type CheckoutRequest = z.input<typeof checkoutRequest>;

/**
 * The order's outcome: paid (go to thanks), or a step at the provider first (3-D Secure,
 * PayPal approval) whose page comes back to `return_url`.
 */
export const checkoutResponse = z.object({
  status: z.enum(['completed', 'requires_action']),
  subscription_id: z.number().int().nullable(),
  invoice_id: z.number().int().nullable(),
  redirect_url: z.string().nullable(),
});
export type CheckoutResponse = z.infer<typeof checkoutResponse>;

export const cardView = z
  .object({
    card_id: z.string(),
    brand: z.string(),
    last4: z.string(),
    exp_month: z.number().int(),
    /** With its century (2031), §3. */
    exp_year: z.number().int(),
    default: z.boolean(),
  })
  .meta({ id: 'CardSource' });
export type CardView = z.infer<typeof cardView>;

export const subscriptionItemView = z.object({
  product_id: z.number().int(),
  name: z.string(),
  amount: money,
  quantity: z.number().int(),
  additional: z.boolean(),
});

export const invoiceView = z
  .object({
    invoice_id: z.number().int(),
    number: z.string().nullable(),
    status: z.enum(INVOICE_STATUSES),
    currency,
    subtotal: money,
    discount: money,
    tax: money,
    total: money,
    amount_paid: money,
    amount_refunded: money,
    issued_at: isoDate,
    paid_at: isoDate.nullable(),
    period_start: isoDate.nullable(),
    period_end: isoDate.nullable(),
    description: z.string(),
    /** Why the last payment failed, in the gateway's words. */
    last_failure: z.string().nullable(),
  })
  .meta({ id: 'Invoice' });
export type InvoiceView = z.infer<typeof invoiceView>;

/** §3 Subscription, the current one with all the billing screens show. */
export const subscriptionDetail = z
  .object({
    subscription_id: z.number().int(),
    status: z.enum(SUBSCRIPTION_STATUSES),
    service_id: serviceId,
    onetime: z.boolean(),
    exists: z.boolean(),
    payment_method: z.object({
      type: z.enum(PAYMENT_METHOD_TYPES),
      card: cardView.nullable(),
    }),
    plan: z.object({
      plan_id: z.string(),
      product_id: z.number().int(),
      name: z.string(),
      interval: z.enum(BILLING_INTERVALS).nullable(),
      interval_count: z.number().int(),
    }),
    subscription_items: z.array(subscriptionItemView),
    currency,
    /** What the next renewal costs, discount applied. */
    amount: money,
    current_period_start: isoDate.nullable(),
    current_period_end: isoDate.nullable(),
    cancel_at_period_end: z.boolean(),
    paused_at: isoDate.nullable(),
    /** On hold: access lasts until then. */
    grace_until: isoDate.nullable(),
    ended_at: isoDate.nullable(),
  })
  .meta({ id: 'Subscription' });
export type SubscriptionDetail = z.infer<typeof subscriptionDetail>;

export const subscriptionResponse = z.object({ subscription: subscriptionDetail });

export const changePreviewQuery = z.object({ product_id: id });
export const changePreviewResponse = z.object({
  currency,
  product: productView,
  /** The unused part of the current period, credited. */
  credit: money,
  /** The rest of the period on the new plan. */
  charge: money,
  /** Charged now. */
  due: money,
  /** What each renewal costs from then on. */
  next_amount: money,
  current_period_end: isoDate.nullable(),
});
export type ChangePreviewResponse = z.infer<typeof changePreviewResponse>;

export const changeRequest = z.object({ product_id: id, idempotency_key: z.uuid() });

export const fixPaymentRequest = z.object({
  token: z.string().max(200).optional(),
  card_id: z.string().max(200).optional(),
  idempotency_key: z.uuid(),
});

export const cardCreateRequest = z.object({ token: z.string().min(1).max(200) });
export const cardIdRequest = z.object({ card_id: z.string().min(1).max(200) });
export const cardUpdateRequest = z.object({
  card_id: z.string().min(1).max(200),
  exp_month: z.coerce.number().int().min(1).max(12),
  exp_year: z.coerce.number().int().min(2000).max(2100),
});
export const cardsResponse = z.object({ items: z.array(cardView) });

export const invoicesResponse = listResponse(invoiceView);
export const invoiceParams = z.object({ invoice_id: id });

export const billingAddressResponse = z.object({ billing_address: billingAddress });

export const billingEndpoints = {
  services: endpoint({
    method: 'GET',
    base: 'public',
    path: '/billing/services',
    access: 'public',
    tag: 'billing',
    summary: 'Payment services on offer, with their payment method flags',
    response: servicesResponse,
    feature: 'billing',
  }),
  products: endpoint({
    method: 'GET',
    base: 'public',
    path: '/billing/products',
    access: 'public',
    tag: 'billing',
    summary: 'Plans and addons on sale for a service and currency',
    query: productsQuery,
    response: productsResponse,
    feature: 'billing',
  }),
  quote: endpoint({
    method: 'POST',
    base: 'public',
    path: '/billing/quote',
    access: 'public',
    tag: 'billing',
    summary: 'What an order costs, with its coupon checked',
    body: orderSelection,
    response: quoteResponse,
    feature: 'billing',
  }),
  checkout: endpoint({
    method: 'POST',
    base: 'account',
    path: '/billing/subscriptions/create',
    access: 'active',
    tag: 'billing',
    summary: 'Buy a plan: subscribe and pay the first invoice',
    body: checkoutRequest,
    response: checkoutResponse,
    feature: 'billing',
  }),
  appStoreAccountToken: endpoint({
    method: 'GET',
    base: 'account',
    path: '/billing/app-store/account-token',
    access: 'signed-in',
    tag: 'billing',
    summary: "The customer's appAccountToken, which the app passes to StoreKit with a purchase",
    response: z.object({ app_account_token: z.uuid() }),
    feature: 'billing',
  }),
  appStoreRestore: endpoint({
    method: 'POST',
    base: 'account',
    path: '/billing/app-store/restore',
    access: 'signed-in',
    tag: 'billing',
    summary: "Restore purchases: the app's signed App Store transactions, checked and applied",
    body: z.object({
      signed_transactions: z.array(z.string().min(1).max(20_000)).min(1).max(100),
    }),
    response: z.object({
      restored: z.array(
        z.object({ original_transaction_id: z.string(), status: z.enum(SUBSCRIPTION_STATUSES) }),
      ),
      /** Another account's purchase, not a subscription, or unknown to Apple. */
      refused: z.array(
        z.object({
          original_transaction_id: z.string(),
          reason: z.enum(['other_account', 'not_subscription', 'unknown_to_apple']),
        }),
      ),
    }),
    feature: 'billing',
  }),
  pendingPayment: endpoint({
    method: 'GET',
    base: 'account',
    path: '/billing/pending-payment',
    access: 'signed-in',
    tag: 'billing',
    summary: 'A payment seen but not yet confirmed (§3 crypto approval pending)',
    response: pendingPaymentResponse,
    feature: 'billing',
  }),
  subscription: endpoint({
    method: 'GET',
    base: 'account',
    path: '/billing/subscriptions/current/detail',
    access: 'signed-in',
    tag: 'billing',
    summary: 'The current subscription with plan, items and payment method',
    response: subscriptionResponse,
    feature: 'billing',
  }),
  changePreview: endpoint({
    method: 'GET',
    base: 'account',
    path: '/billing/subscriptions/change/preview',
    access: 'active',
    tag: 'billing',
    summary: 'What a plan change costs now (proration) and at renewal',
    query: changePreviewQuery,
    response: changePreviewResponse,
    feature: 'billing',
  }),
  change: endpoint({
    method: 'POST',
    base: 'account',
    path: '/billing/subscriptions/change',
    access: 'active',
    tag: 'billing',
    summary: 'Change plan (upgrade), paying the proration now',
    body: changeRequest,
    response: checkoutResponse,
    feature: 'billing',
  }),
  reactivate: endpoint({
    method: 'POST',
    base: 'account',
    path: '/billing/subscriptions/reactivate',
    access: 'active',
    tag: 'billing',
    summary: 'Subscribe again after an expired or refunded subscription',
    body: checkoutRequest,
    response: checkoutResponse,
    feature: 'billing',
  }),
  upgradeBonus: endpoint({
    method: 'POST',
    base: 'account',
    path: '/billing/subscriptions/upgrade-bonus',
    access: 'active',
    tag: 'billing',
    summary: 'Turn bonus days into a paid plan',
    body: checkoutRequest,
    response: checkoutResponse,
    feature: 'billing',
  }),
  cancel: endpoint({
    method: 'POST',
    base: 'account',
    path: '/billing/subscriptions/cancel',
    access: 'active',
    tag: 'billing',
    summary: 'Cancel at the end of the paid period',
    response: subscriptionResponse,
    feature: 'billing',
  }),
  resume: endpoint({
    method: 'POST',
    base: 'account',
    path: '/billing/subscriptions/resume',
    access: 'active',
    tag: 'billing',
    summary: 'Keep a subscription that was set to cancel at period end',
    response: subscriptionResponse,
    feature: 'billing',
  }),
  pause: endpoint({
    method: 'POST',
    base: 'account',
    path: '/billing/subscriptions/pause',
    access: 'active',
    tag: 'billing',
    summary: 'Pause renewals; access lasts to the end of the paid period',
    response: subscriptionResponse,
    feature: 'billing',
  }),
  continue: endpoint({
    method: 'POST',
    base: 'account',
    path: '/billing/subscriptions/continue',
    access: 'active',
    tag: 'billing',
    summary: 'Continue a paused subscription',
    response: subscriptionResponse,
    feature: 'billing',
  }),
  fix: endpoint({
    method: 'POST',
    base: 'account',
    path: '/billing/subscriptions/fix',
    access: 'active',
    tag: 'billing',
    summary: 'Pay the open invoice with a new or saved card and make it the default',
    body: fixPaymentRequest,
    response: checkoutResponse,
    feature: 'billing',
  }),
  cards: endpoint({
    method: 'GET',
    base: 'account',
    path: '/billing/cards',
    access: 'signed-in',
    tag: 'billing',
    summary: 'Saved cards, the default first',
    response: cardsResponse,
    feature: 'billing',
  }),
  cardCreate: endpoint({
    method: 'POST',
    base: 'account',
    path: '/billing/cards/create',
    access: 'active',
    tag: 'billing',
    summary: 'Save a card from the card form',
    body: cardCreateRequest,
    response: cardsResponse,
    feature: 'billing',
  }),
  cardSetup: endpoint({
    method: 'POST',
    base: 'account',
    path: '/billing/cards/setup',
    access: 'active',
    tag: 'billing',
    summary: "Add a card on the card processor's own page (its URL): no card form here",
    body: z.object({ idempotency_key: z.uuid(), lang: z.enum(LANGS) }),
    response: z.object({ redirect_url: z.string() }),
    feature: 'billing',
  }),
  cardUpdate: endpoint({
    method: 'POST',
    base: 'account',
    path: '/billing/cards/update',
    access: 'active',
    tag: 'billing',
    summary: "Change a card's expiry",
    body: cardUpdateRequest,
    response: cardsResponse,
    feature: 'billing',
  }),
  cardDelete: endpoint({
    method: 'POST',
    base: 'account',
    path: '/billing/cards/delete',
    access: 'active',
    tag: 'billing',
    summary: 'Remove a card (not the one a running subscription is charged to)',
    body: cardIdRequest,
    response: cardsResponse,
    feature: 'billing',
  }),
  setDefaultSource: endpoint({
    method: 'POST',
    base: 'account',
    path: '/users/set-source-as-default',
    access: 'active',
    tag: 'billing',
    summary: 'Make a card the default; renewals are charged to it',
    body: cardIdRequest,
    response: z.object({ user: authUser, items: z.array(cardView) }),
    feature: 'billing',
  }),
  billingAddress: endpoint({
    method: 'GET',
    base: 'account',
    path: '/users/billing-address',
    access: 'signed-in',
    tag: 'billing',
    summary: 'The billing address printed on invoices',
    response: billingAddressResponse,
    feature: 'billing',
  }),
  billingAddressUpdate: endpoint({
    method: 'POST',
    base: 'account',
    path: '/users/billing-address/update',
    access: 'active',
    tag: 'billing',
    summary: 'Change the billing address',
    body: billingAddress,
    response: billingAddressResponse,
    feature: 'billing',
  }),
  invoices: endpoint({
    method: 'GET',
    base: 'account',
    path: '/billing/invoices',
    access: 'signed-in',
    tag: 'billing',
    summary: 'Invoices, newest first',
    query: pagingQuery,
    response: invoicesResponse,
    feature: 'billing',
  }),
  invoicePdf: endpoint({
    method: 'GET',
    base: 'account',
    path: '/billing/invoices/:invoice_id/pdf',
    access: 'signed-in',
    tag: 'billing',
    summary: 'One invoice as a PDF in its language',
    params: invoiceParams,
    produces: 'file',
    feature: 'billing',
  }),
  /** A gateway's signed report of a change (§ issue 12: one route per gateway). */
  webhook: endpoint({
    method: 'POST',
    base: 'public',
    path: '/webhooks/:gateway',
    access: 'own-signature',
    tag: 'webhooks',
    summary: "A payment gateway's signed event; 400 when the signature fails, 5xx to be retried",
    params: z.object({ gateway: z.enum(GATEWAY_NAMES) }),
    response: z.object({ received: z.literal(true) }),
  }),
} as const;
