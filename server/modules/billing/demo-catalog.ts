import { and, eq } from 'drizzle-orm';
import type { BillingInterval } from '#shared/billing/billing-values.ts';
import type { ServiceId } from '#shared/subscription/actions.ts';
import type { Database } from '../../db/client.ts';
import { gatewayPrices, products } from '../../db/schema/index.ts';

// What the embedded default sells, so the order page has plans on `npm start` (and tests a
// catalog): card plans (service 1) in each §3 Locale currency, each with its addon, and the
// same offers for PayPal, crypto and the App Store, shown once their gateway is configured.

interface Offer {
  plan: string;
  name: string;
  interval: BillingInterval;
  intervalCount: number;
  /** Minor units per currency. */
  amount: Record<string, number>;
  monthly?: true;
  mostSelected?: true;
  familySeats?: number;
  addon: Record<string, number>;
}

const MONTHLY: Record<string, number> = { USD: 1299, EUR: 1199, RUB: 49_900 };

const OFFERS: readonly Offer[] = [
  {
    plan: 'standard',
    name: '1 month',
    interval: 'month',
    intervalCount: 1,
    amount: MONTHLY,
    addon: { USD: 399, EUR: 349, RUB: 14_900 },
  },
  {
    plan: 'standard',
    name: '1 year',
    interval: 'year',
    intervalCount: 1,
    amount: { USD: 7188, EUR: 6588, RUB: 299_000 },
    monthly: true,
    mostSelected: true,
    addon: { USD: 3588, EUR: 3348, RUB: 143_000 },
  },
  {
    plan: 'standard',
    name: '2 years',
    interval: 'year',
    intervalCount: 2,
    amount: { USD: 10_776, EUR: 9900, RUB: 449_000 },
    monthly: true,
    addon: { USD: 5976, EUR: 5496, RUB: 239_000 },
  },
  {
    plan: 'family',
    name: 'Family, 1 year',
    interval: 'year',
    intervalCount: 1,
    amount: { USD: 11_988, EUR: 10_788, RUB: 479_000 },
    monthly: true,
    familySeats: 6,
    addon: { USD: 3588, EUR: 3348, RUB: 143_000 },
  },
];

const months = (offer: Offer) => (offer.interval === 'year' ? 12 : 1) * offer.intervalCount;

/**
 * How each §9 service sells the offers: cards and PayPal renew, crypto buys one period at a
 * time (Cryptomus has no subscriptions), and the App Store sells its own products, named by
 * their App Store product ids, in US dollars (the App Store prices per storefront itself).
 */
const SERVICES: readonly {
  serviceId: ServiceId;
  onetime: boolean;
  addons: boolean;
  currencies: readonly string[];
  offers: readonly string[];
}[] = [
  { serviceId: 1, onetime: false, addons: true, currencies: ['USD', 'EUR', 'RUB'], offers: [] },
  // PayPal bills at most a year per cycle: no 2-year plan.
  {
    serviceId: 2,
    onetime: false,
    addons: true,
    currencies: ['USD', 'EUR'],
    offers: ['1 month', '1 year', 'Family, 1 year'],
  },
  {
    serviceId: 6,
    onetime: true,
    addons: false,
    currencies: ['USD', 'EUR'],
    offers: ['1 month', '1 year'],
  },
  {
    serviceId: 4,
    onetime: false,
    addons: false,
    currencies: ['USD'],
    offers: ['1 month', '1 year'],
  },
];

/** The App Store product id of an offer (App Store Connect holds the same ids). */
export const APP_STORE_PRODUCT_IDS: Record<string, string> = {
  '1 month': 'com.shieldline.vpn.monthly',
  '1 year': 'com.shieldline.vpn.yearly',
};

/** Inserts the demo catalog; answers the card plans' ids by currency and name. */
export async function seedDemoCatalog(db: Database): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  let sort = 0;
  for (const service of SERVICES) {
    for (const currency of service.currencies) {
      for (const offer of OFFERS) {
        if (service.offers.length > 0 && !service.offers.includes(offer.name)) continue;
        sort += 10;
        const amount = offer.amount[currency] ?? 0;
        const monthly = MONTHLY[currency] ?? 0;
        const [addon] = service.addons
          ? await db
              .insert(products)
              .values({
                serviceId: service.serviceId,
                plan: 'dedicated-ip',
                name: `Dedicated IP (${offer.name})`,
                description:
                  'A fixed address of your own, for sites that block shared VPN addresses.',
                amount: offer.addon[currency] ?? 0,
                currency,
                interval: offer.interval,
                intervalCount: offer.intervalCount,
                additional: true,
                sort,
              })
              .returning({ id: products.id })
          : [];
        const [plan] = await db
          .insert(products)
          .values({
            serviceId: service.serviceId,
            plan: offer.plan,
            name: offer.name,
            description:
              offer.plan === 'family'
                ? `Up to ${offer.familySeats} people, each with their own account.`
                : 'Every server, unlimited bandwidth, 10 devices at once.',
            amount,
            amountOld: offer.monthly && offer.plan === 'standard' ? monthly * months(offer) : null,
            currency,
            interval: offer.interval,
            intervalCount: offer.intervalCount,
            onetime: service.onetime,
            sort,
            asMonthlyRate: offer.monthly ?? false,
            discountedBadge: Boolean(offer.monthly && offer.plan === 'standard'),
            asMostSelected: offer.mostSelected ?? false,
            additionalProductId: addon?.id ?? null,
            familySeats: offer.familySeats ?? 0,
          })
          .returning({ id: products.id });
        if (!plan) continue;
        if (service.serviceId === 1) ids.set(`${currency}:${offer.name}`, plan.id);
        const appStoreId = APP_STORE_PRODUCT_IDS[offer.name];
        if (service.serviceId === 4 && appStoreId) {
          await db
            .insert(gatewayPrices)
            .values({ productId: plan.id, gateway: 'appstore', priceRef: appStoreId });
        }
      }
    }
  }
  return ids;
}

/** The demo catalog's plan of that currency and name (tests). */
export async function demoPlan(db: Database, currency: string, name: string, serviceId = 1) {
  const rows = await db
    .select()
    .from(products)
    .where(and(eq(products.currency, currency), eq(products.serviceId, serviceId)));
  const plan = rows.find((row) => row.name === name && !row.additional);
  if (!plan) throw new Error(`no demo plan ${currency} ${name} of service ${serviceId}`);
  return plan;
}
