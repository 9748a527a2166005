import type {
  CardView,
  InvoiceView,
  ProductView,
  SubscriptionDetail,
} from '#shared/contracts/billing.ts';
import type { ListControls } from '#shared/contracts/list.ts';

// Answers of the billing endpoints for the screens' component tests, every field filled;
// each test overrides what it is about. Data only: the tests stub fetch themselves.

export function subscriptionDetail(
  overrides: Partial<SubscriptionDetail> = {},
): SubscriptionDetail {
  return {
    subscription_id: 7,
    status: 'active',
    service_id: 1,
    onetime: false,
    exists: true,
    payment_method: {
      type: 'card',
      card: {
        card_id: 'card_visa',
        brand: 'visa',
        last4: '4242',
        exp_month: 4,
        exp_year: 2031,
        default: true,
      },
    },
    plan: {
      plan_id: 'vpn-monthly',
      product_id: 11,
      name: 'VPN Monthly',
      interval: 'month',
      interval_count: 1,
    },
    subscription_items: [
      { product_id: 11, name: 'VPN Monthly', amount: 999, quantity: 1, additional: false },
    ],
    currency: 'USD',
    amount: 999,
    current_period_start: '2026-11-01T00:00:00.000Z',
    current_period_end: '2026-12-01T00:00:00.000Z',
    cancel_at_period_end: false,
    paused_at: null,
    grace_until: null,
    ended_at: null,
    ...overrides,
  };
}

export function invoice(id: number, overrides: Partial<InvoiceView> = {}): InvoiceView {
  return {
    invoice_id: id,
    number: `2026-${String(id).padStart(6, '0')}`,
    status: 'paid',
    currency: 'USD',
    subtotal: 999,
    discount: 0,
    tax: 0,
    total: 999,
    amount_paid: 999,
    amount_refunded: 0,
    issued_at: '2026-11-01T00:00:00.000Z',
    paid_at: '2026-11-01T00:00:05.000Z',
    period_start: '2026-11-01T00:00:00.000Z',
    period_end: '2026-12-01T00:00:00.000Z',
    description: 'VPN Monthly',
    last_failure: null,
    ...overrides,
  };
}

export function invoicePage(items: InvoiceView[], controls: Partial<ListControls> = {}) {
  return {
    items,
    controls: { page: 1, per_page: 10, total: items.length, last_page: 1, ...controls },
  };
}

export function card(overrides: Partial<CardView> = {}): CardView {
  return {
    card_id: 'card_visa',
    brand: 'visa',
    last4: '4242',
    exp_month: 4,
    exp_year: 2031,
    default: true,
    ...overrides,
  };
}

export function product(id: number, overrides: Partial<ProductView> = {}): ProductView {
  return {
    product_id: id,
    service_id: 1,
    plan: `plan-${id}`,
    name: `Plan ${id}`,
    description: '',
    amount: 999,
    amount_old: null,
    currency: 'USD',
    interval: 'month',
    interval_count: 1,
    visible: true,
    disabled: false,
    sort: id,
    as_monthly_rate: false,
    discounted_badge: false,
    as_most_selected: false,
    additional: false,
    onetime: false,
    includable: false,
    includable_product_id: [],
    additional_product: null,
    family_seats: 0,
    monthly_amount: 999,
    saving_percent: 0,
    ...overrides,
  };
}
