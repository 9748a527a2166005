import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { monthlyRate, savingPercent } from '#shared/billing/pricing.ts';
import type { ProductView } from '#shared/contracts/billing.ts';
import type { ServiceId } from '#shared/subscription/actions.ts';
import type { Database } from '../../db/client.ts';
import { type ProductRow, productIncludes, products } from '../../db/schema/index.ts';

/** §9 "Product cache expires after about 0.5 minutes per service and currency." */
export const CATALOG_TTL_MS = 30_000;

export interface CatalogProduct {
  row: ProductRow;
  /** The includable addons the plan comes with. */
  includes: number[];
}

/**
 * What is on sale, per service and currency, read at most every 30 s (§9): the order page
 * is the busiest page, and a staff change to a price reaching it within half a minute is
 * what §9 promises.
 */
export class Catalog {
  readonly #db: Database;
  readonly #cache = new Map<string, { at: number; items: Promise<CatalogProduct[]> }>();
  readonly #listeners: (() => void)[] = [];

  constructor(db: Database) {
    this.#db = db;
  }

  /** Visible, enabled, undeleted products of a service in a currency, by `sort`. */
  onSale(serviceId: ServiceId, currency: string): Promise<CatalogProduct[]> {
    const key = `${serviceId}:${currency}`;
    const cached = this.#cache.get(key);
    if (cached && Date.now() - cached.at < CATALOG_TTL_MS) return cached.items;
    const items = this.#load(serviceId, currency);
    this.#cache.set(key, { at: Date.now(), items });
    items.catch(() => this.#cache.delete(key));
    return items;
  }

  /** One product on sale, from the cached list; undefined when hidden, disabled or gone. */
  async findOnSale(
    productId: number,
    serviceId: ServiceId,
    currency: string,
  ): Promise<CatalogProduct | undefined> {
    return (await this.onSale(serviceId, currency)).find((p) => p.row.id === productId);
  }

  /** Staff changed the catalog: the next read loads it afresh, here and (listeners) elsewhere. */
  invalidate(): void {
    this.forget();
    for (const listener of this.#listeners) listener();
  }

  /** Drops what this process holds, telling no one: another process changed the catalog. */
  forget(): void {
    this.#cache.clear();
  }

  /** Called after each `invalidate` (the public site's pages show prices). */
  onInvalidate(listener: () => void): void {
    this.#listeners.push(listener);
  }

  async #load(serviceId: ServiceId, currency: string): Promise<CatalogProduct[]> {
    const rows = await this.#db
      .select()
      .from(products)
      .where(
        and(
          eq(products.serviceId, serviceId),
          eq(products.currency, currency),
          eq(products.visible, true),
          eq(products.disabled, false),
          // Deleted by staff: kept for what names it, never sold again.
          isNull(products.deletedAt),
        ),
      )
      .orderBy(asc(products.sort), asc(products.id));
    const includes = await includesOf(
      this.#db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({ row, includes: includes.get(row.id) ?? [] }));
  }
}

export async function includesOf(db: Database, planIds: number[]): Promise<Map<number, number[]>> {
  const byPlan = new Map<number, number[]>();
  if (planIds.length === 0) return byPlan;
  const rows = await db
    .select()
    .from(productIncludes)
    .where(inArray(productIncludes.planId, planIds));
  for (const { planId, addonId } of rows)
    byPlan.set(planId, [...(byPlan.get(planId) ?? []), addonId]);
  return byPlan;
}

export function presentProduct({ row, includes }: CatalogProduct): ProductView {
  return {
    product_id: row.id,
    service_id: row.serviceId as ServiceId,
    plan: row.plan,
    name: row.name,
    description: row.description,
    amount: row.amount,
    amount_old: row.amountOld,
    currency: row.currency,
    interval: row.interval,
    interval_count: row.intervalCount,
    visible: row.visible,
    disabled: row.disabled,
    sort: row.sort,
    as_monthly_rate: row.asMonthlyRate,
    discounted_badge: row.discountedBadge,
    as_most_selected: row.asMostSelected,
    additional: row.additional,
    onetime: row.onetime,
    includable: row.includable,
    includable_product_id: includes,
    additional_product: row.additionalProductId,
    family_seats: row.familySeats,
    monthly_amount: monthlyRate(row.amount, row.interval, row.intervalCount),
    saving_percent: savingPercent(row.amount, row.amountOld),
  };
}
