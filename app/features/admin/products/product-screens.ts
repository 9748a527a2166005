import type { ServiceId } from '#shared/subscription/actions.ts';
import type { RouteName } from '../../../routes/route-table.ts';

// Which products each screen shows, and where its rows lead: one entry per gateway route of
// the table (§2 service ids: Stripe 1, PayPal 2, in-app purchase 4, crypto 6) and the addons.

export type GatewayKey = 'stripe' | 'paypal' | 'iap' | 'cryptomus';
export type ProductsScreenKey = GatewayKey | 'addons-modules' | 'addons-products';

export interface ProductsScreen {
  /** The list's own route (its title). */
  route: RouteName;
  /** The product detail route its rows open. */
  detail: RouteName;
  /** The service it sells; the addons' screens span every service. */
  serviceId: ServiceId | null;
  /** The kind it always lists (the addons' screens); a gateway screen filters by kind. */
  kind: 'addons' | 'includable' | null;
  /** The gateway's keys screen. */
  settings: RouteName | null;
}

const gateway = (key: GatewayKey, serviceId: ServiceId): ProductsScreen => ({
  route: `admin.payment-gateways.${key}.products`,
  detail: `admin.payment-gateways.${key}.product`,
  serviceId,
  kind: null,
  settings: `admin.payment-gateways.${key}.settings`,
});

export const PRODUCTS_SCREENS: Record<ProductsScreenKey, ProductsScreen> = {
  stripe: gateway('stripe', 1),
  paypal: gateway('paypal', 2),
  iap: gateway('iap', 4),
  cryptomus: gateway('cryptomus', 6),
  'addons-modules': {
    route: 'admin.payment-gateways.addons.modules',
    detail: 'admin.payment-gateways.addons.product',
    serviceId: null,
    kind: 'includable',
    settings: null,
  },
  'addons-products': {
    route: 'admin.payment-gateways.addons.products',
    detail: 'admin.payment-gateways.addons.product',
    serviceId: null,
    kind: 'addons',
    settings: null,
  },
};

/** The screen a product detail route belongs to: its list (the way back) and its service. */
export const DETAIL_SCREENS: Record<GatewayKey | 'addons', ProductsScreenKey> = {
  stripe: 'stripe',
  paypal: 'paypal',
  iap: 'iap',
  cryptomus: 'cryptomus',
  addons: 'addons-products',
};

/** Service ids staff can sell in, with their i18n label. */
export const SERVICE_LABELS: Record<ServiceId, string> = {
  1: 'staff_catalog.services.1',
  2: 'staff_catalog.services.2',
  4: 'staff_catalog.services.4',
  5: 'staff_catalog.services.5',
  6: 'staff_catalog.services.6',
};
