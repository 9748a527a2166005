import type { AdminProduct, ProductMassChange } from '#shared/contracts/admin/products.ts';
import { minorDigits, toMinorUnits } from '#shared/money.ts';
import type { ServiceId } from '#shared/subscription/actions.ts';
import type { PlanTab } from './plan-tabs.ts';

// What staff change on the manage-plans screen before saving: the order of each service's
// list and, per plan, the flags the order page reads. Free of React, so the rules are tested
// on their own (plan-draft.test.ts).

/** One service's products in a currency, as saved, by §3 `sort`. */
export interface PlanGroup {
  serviceId: ServiceId;
  products: readonly AdminProduct[];
}

export interface RowDraft {
  as_most_selected: boolean;
  as_monthly_rate: boolean;
  discounted_badge: boolean;
  /** The old price as typed, in major units ("71.88"); empty for none. */
  amount_old: string;
}

export interface Draft {
  /** Product ids per group, in the order staff put them. */
  order: readonly (readonly number[])[];
  rows: Readonly<Record<number, RowDraft>>;
}

const bySort = (a: AdminProduct, b: AdminProduct) => a.sort - b.sort || a.product_id - b.product_id;

/** The tab's products grouped by service (services without any left out), each by `sort`. */
export function groupProducts(products: readonly AdminProduct[], tab: PlanTab): PlanGroup[] {
  return tab.services
    .map((serviceId) => ({
      serviceId,
      products: products
        .filter((product) => product.service_id === serviceId)
        .filter((product) => !tab.bundlesOnly || product.includable_product_id.length > 0)
        .sort(bySort),
    }))
    .filter((group) => group.products.length > 0);
}

export function initialDraft(groups: readonly PlanGroup[]): Draft {
  const rows: Record<number, RowDraft> = {};
  for (const product of groups.flatMap((group) => group.products)) {
    rows[product.product_id] = {
      as_most_selected: product.as_most_selected,
      as_monthly_rate: product.as_monthly_rate,
      discounted_badge: product.discounted_badge,
      amount_old: majorText(product.amount_old, product.currency),
    };
  }
  return {
    order: groups.map((group) => group.products.map((product) => product.product_id)),
    rows,
  };
}

export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item === undefined) return next;
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item);
  return next;
}

/** Minor units as a person types them: 7188 USD → "71.88"; none → "". */
export function majorText(amount: number | null, currency: string): string {
  if (amount === null) return '';
  const digits = minorDigits(currency);
  return (amount / 10 ** digits).toFixed(digits);
}

/** What was typed as a price, in minor units: null when empty, undefined when not a price. */
export function parseMajor(text: string, currency: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const digits = minorDigits(currency);
  const pattern = digits > 0 ? new RegExp(`^\\d{1,9}([.,]\\d{1,${digits}})?$`) : /^\d{1,9}$/;
  if (!pattern.test(trimmed)) return undefined;
  return toMinorUnits(Number(trimmed.replace(',', '.')), currency);
}

/** Why a row cannot be saved as it is (an i18n key), if it cannot. */
export function rowProblem(product: AdminProduct, row: RowDraft): string | undefined {
  const old = parseMajor(row.amount_old, product.currency);
  if (old === undefined) return 'staff_plans.amount_old_invalid';
  // The badge shows the saving against the old price: without a higher one it would say 0%.
  if (row.discounted_badge && (old === null || old <= product.amount)) {
    return 'staff_plans.badge_needs_old_price';
  }
  return undefined;
}

/**
 * The `sort` each product of a reordered group gets. A list holding all of a service's
 * products is numbered 10, 20, 30 …; a part of one (the bundles) takes the places its
 * products held, so the other plans keep theirs around them.
 */
export function newSorts(
  products: readonly AdminProduct[],
  order: readonly number[],
  complete: boolean,
): Map<number, number> {
  const slots = products.map((product) => product.sort).sort((a, b) => a - b);
  const sorts = new Map<number, number>();
  let previous = -1;
  order.forEach((productId, index) => {
    const sort = complete ? (index + 1) * 10 : Math.max(slots[index] ?? 0, previous + 1);
    sorts.set(productId, sort);
    previous = sort;
  });
  return sorts;
}

/** The mass update that saves the draft: only the products, and fields, that changed. */
export function changesOf(
  groups: readonly PlanGroup[],
  draft: Draft,
  complete: boolean,
): ProductMassChange[] {
  const changes: ProductMassChange[] = [];
  groups.forEach((group, index) => {
    const order = draft.order[index] ?? [];
    const reordered = order.some((id, at) => group.products[at]?.product_id !== id);
    const sorts = reordered ? newSorts(group.products, order, complete) : new Map();
    for (const productId of order) {
      const product = group.products.find((item) => item.product_id === productId);
      const row = draft.rows[productId];
      if (!product || !row) continue;
      const change: ProductMassChange = { product_id: productId };
      const sort = sorts.get(productId);
      if (sort !== undefined && sort !== product.sort) change.sort = sort;
      if (row.as_most_selected !== product.as_most_selected) {
        change.as_most_selected = row.as_most_selected;
      }
      if (row.as_monthly_rate !== product.as_monthly_rate) {
        change.as_monthly_rate = row.as_monthly_rate;
      }
      if (row.discounted_badge !== product.discounted_badge) {
        change.discounted_badge = row.discounted_badge;
      }
      const old = parseMajor(row.amount_old, product.currency);
      if (old !== undefined && old !== product.amount_old) change.amount_old = old;
      if (Object.keys(change).length > 1) changes.push(change);
    }
  });
  return changes;
}

export function sameDraft(a: Draft, b: Draft): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
