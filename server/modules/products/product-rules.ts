import { and, eq, inArray, ne, or } from 'drizzle-orm';
import type { z } from 'zod';
import { PRODUCT_MESSAGES as M, type productFields } from '#shared/contracts/admin/products.ts';
import type { ServiceId } from '#shared/subscription/actions.ts';
import { FIELD_IS_REQUIRED } from '#shared/validation/zod-messages.ts';
import type { Database } from '../../db/client.ts';
import { type ProductRow, productIncludes, products } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { notDeleted } from './products-query.ts';

// §3 Product's rules that no single field's schema can tell: what the gateways of its
// service can sell, and how products name one another.

export type ProductFields = z.infer<typeof productFields>;

/** PayPal bills subscriptions only; Cryptomus sells one period at a time. */
const RENEWS_ONLY: ReadonlySet<ServiceId> = new Set([2]);
const ONETIME_ONLY: ReadonlySet<ServiceId> = new Set([6]);

/**
 * Every product needs a period: a renewing one renews every period, a one-time one buys one
 * (Stripe's one-time purchases and Cryptomus's invoices run for it).
 */
export function checkTerms(serviceId: ServiceId, fields: ProductFields): void {
  if (fields.interval === null) throw AppError.field('interval', FIELD_IS_REQUIRED);
  if (fields.onetime && RENEWS_ONLY.has(serviceId)) throw AppError.field('onetime', M.renewsOnly);
  if (!fields.onetime && ONETIME_ONLY.has(serviceId)) {
    throw AppError.field('onetime', M.onetimeOnly);
  }
  if (fields.includable && !fields.additional) {
    throw AppError.field('includable', M.includableNotAddon);
  }
}

/** The addon offered beside a plan: a live addon of the plan's service and currency. */
export async function checkAdditionalProduct(
  db: Database,
  serviceId: ServiceId,
  fields: ProductFields,
  selfId: number | null,
): Promise<void> {
  const id = fields.additional_product;
  if (id === null) return;
  const [addon] = await db
    .select()
    .from(products)
    .where(and(eq(products.id, id), notDeleted));
  if (
    !addon ||
    addon.id === selfId ||
    !addon.additional ||
    addon.serviceId !== serviceId ||
    addon.currency !== fields.currency
  ) {
    throw AppError.field('additional_product', M.addonMismatch);
  }
}

/**
 * An addon plans name (beside them, or included in them) keeps being an addon of its
 * currency: otherwise those plans would offer something they cannot sell.
 */
export async function checkAddonStaysUsable(
  db: Database,
  before: ProductRow,
  fields: ProductFields,
): Promise<void> {
  const stopsBeingAddon = before.additional && !fields.additional;
  const stopsBeingIncludable = before.includable && !fields.includable;
  const movesCurrency = before.additional && before.currency !== fields.currency;
  if (!stopsBeingAddon && !stopsBeingIncludable && !movesCurrency) return;
  const [offeredBeside] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.additionalProductId, before.id), notDeleted))
    .limit(1);
  const [included] = await db
    .select({ id: productIncludes.planId })
    .from(productIncludes)
    .where(eq(productIncludes.addonId, before.id))
    .limit(1);
  if ((offeredBeside && (stopsBeingAddon || movesCurrency)) || included) {
    throw AppError.field(stopsBeingIncludable ? 'includable' : 'additional', M.addonInUse);
  }
}

/**
 * §2 "most selected" is one plan per service and currency: marking `keepId` unmarks the
 * others (in the caller's transaction, so the order page never sees two).
 */
export async function unmarkOtherMostSelected(
  tx: Database,
  keep: { id: number; serviceId: number; currency: string },
): Promise<number[]> {
  const cleared = await tx
    .update(products)
    .set({ asMostSelected: false })
    .where(
      and(
        eq(products.serviceId, keep.serviceId),
        eq(products.currency, keep.currency),
        eq(products.asMostSelected, true),
        ne(products.id, keep.id),
      ),
    )
    .returning({ id: products.id });
  return cleared.map((row) => row.id);
}

/** The plans that name `ids` beside them or include them, let go of them. */
export async function releaseReferences(tx: Database, ids: number[]): Promise<void> {
  await tx
    .update(products)
    .set({ additionalProductId: null })
    .where(inArray(products.additionalProductId, ids));
  await tx
    .delete(productIncludes)
    .where(or(inArray(productIncludes.addonId, ids), inArray(productIncludes.planId, ids)));
}
