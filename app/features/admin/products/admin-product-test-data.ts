import type { AdminProduct } from '#shared/contracts/admin/products.ts';

/** A monthly card plan as staff's product calls answer it, for component and unit tests. */
export function adminProduct(id: number, overrides: Partial<AdminProduct> = {}): AdminProduct {
  return {
    product_id: id,
    service_id: 1,
    plan: 'standard',
    name: `Plan ${id}`,
    description: '',
    amount: 1299,
    amount_old: null,
    currency: 'USD',
    interval: 'month',
    interval_count: 1,
    visible: true,
    disabled: false,
    sort: id * 10,
    as_monthly_rate: false,
    discounted_badge: false,
    as_most_selected: false,
    additional: false,
    onetime: false,
    includable: false,
    includable_product_id: [],
    additional_product: null,
    family_seats: 0,
    device_limit: 10,
    monthly_amount: 1299,
    saving_percent: 0,
    gateway_prices: [],
    active_subscriptions: 0,
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}
