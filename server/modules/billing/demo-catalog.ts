import { eq } from 'drizzle-orm';
import type { BillingInterval } from '#shared/billing/billing-values.ts';
import type { Database } from '../../db/client.ts';
import { products } from '../../db/schema/index.ts';

// What the embedded default sells, so the order page has plans on `npm start` (and tests a
// catalog): card plans (service 1) in each §3 Locale currency, each with its addon.

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

/** Inserts the demo catalog; answers the plans' ids by currency and name. */
export async function seedDemoCatalog(db: Database): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  let sort = 0;
  for (const currency of Object.keys(MONTHLY)) {
    for (const offer of OFFERS) {
      sort += 10;
      const amount = offer.amount[currency] ?? 0;
      const monthly = MONTHLY[currency] ?? 0;
      const [addon] = await db
        .insert(products)
        .values({
          serviceId: 1,
          plan: 'dedicated-ip',
          name: `Dedicated IP (${offer.name})`,
          description: 'A fixed address of your own, for sites that block shared VPN addresses.',
          amount: offer.addon[currency] ?? 0,
          currency,
          interval: offer.interval,
          intervalCount: offer.intervalCount,
          additional: true,
          sort,
        })
        .returning({ id: products.id });
      const [plan] = await db
        .insert(products)
        .values({
          serviceId: 1,
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
          sort,
          asMonthlyRate: offer.monthly ?? false,
          discountedBadge: Boolean(offer.monthly && offer.plan === 'standard'),
          asMostSelected: offer.mostSelected ?? false,
          additionalProductId: addon?.id ?? null,
          familySeats: offer.familySeats ?? 0,
        })
        .returning({ id: products.id });
      if (plan) ids.set(`${currency}:${offer.name}`, plan.id);
    }
  }
  return ids;
}

/** The demo catalog's plan of that currency and name (tests). */
export async function demoPlan(db: Database, currency: string, name: string) {
  const rows = await db.select().from(products).where(eq(products.currency, currency));
  const plan = rows.find((row) => row.name === name && !row.additional);
  if (!plan) throw new Error(`no demo plan ${currency} ${name}`);
  return plan;
}
