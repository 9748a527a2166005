import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AuditAction } from '#shared/audit-actions.ts';
import {
  type AdminProduct,
  PRODUCT_MESSAGES as M,
  type ProductCreateRequest,
  type ProductMassChange,
  type ProductUpdateRequest,
} from '#shared/contracts/admin/products.ts';
import type { ServiceId } from '#shared/subscription/actions.ts';
import { FIELD_IS_INVALID } from '#shared/validation/zod-messages.ts';
import type { Database } from '../../db/client.ts';
import { type ProductRow, productIncludes, products } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Catalog } from '../billing/catalog.ts';
import type { ActiveSession } from '../identity/sessions.ts';
import {
  presentAdminProduct,
  presentAdminProducts,
  runningSubscriptions,
} from './product-presenter.ts';
import {
  checkAdditionalProduct,
  checkAddonStaysUsable,
  checkTerms,
  type ProductFields,
  releaseReferences,
  unmarkOtherMostSelected,
} from './product-rules.ts';
import { findProduct, notDeleted, ofKind } from './products-query.ts';

export interface ProductsDeps {
  db: Database;
  /** The order page's cache (billing's): told of every change, so it shows at once here. */
  catalog: Pick<Catalog, 'invalidate'>;
}

/** The acting admin and their request. */
export interface Acting {
  request: FastifyRequest;
  actor: ActiveSession;
}

export function audit(
  tx: Database,
  { request, actor }: Acting,
  action: AuditAction,
  productId: number,
  data: Record<string, unknown>,
) {
  return recordAudit(tx, request, {
    action,
    actorId: actor.user.id,
    subjectType: 'product',
    subjectId: productId,
    data,
  });
}

/** The row values of a product's fields (service_id is set once, at creation). */
function valuesOf(fields: ProductFields) {
  return {
    plan: fields.plan,
    name: fields.name,
    description: fields.description,
    amount: fields.amount,
    amountOld: fields.amount_old,
    currency: fields.currency,
    interval: fields.interval,
    intervalCount: fields.interval_count,
    onetime: fields.onetime,
    visible: fields.visible,
    disabled: fields.disabled,
    sort: fields.sort,
    asMonthlyRate: fields.as_monthly_rate,
    discountedBadge: fields.discounted_badge,
    asMostSelected: fields.as_most_selected,
    additional: fields.additional,
    includable: fields.includable,
    additionalProductId: fields.additional_product,
    familySeats: fields.family_seats,
    deviceLimit: fields.device_limit,
  };
}

/** What changed between a row and the fields sent, for the audit row. */
function changesOf(before: ProductRow, after: ProductRow): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key of Object.keys(valuesOf({} as ProductFields)) as (keyof ProductRow)[]) {
    if (before[key] !== after[key]) changed[key] = { from: before[key], to: after[key] };
  }
  return changed;
}

/**
 * §2 staff's work on the catalog. Each change is one transaction with its audit row; the
 * order page's cache is dropped after it commits (other processes within §9's 30 s).
 * A new amount, currency or period needs nothing more here: the gateway's price is looked
 * up by them on the next sale (billing/gateway-refs.ts priceFor), so a new one is made then
 * and the old one stays for the subscriptions made on it.
 */
export class ProductsService {
  constructor(private readonly deps: ProductsDeps) {}

  private async changed<T>(work: (tx: Database) => Promise<T>): Promise<T> {
    const result = await this.deps.db.transaction(work);
    this.deps.catalog.invalidate();
    return result;
  }

  async create(acting: Acting, input: ProductCreateRequest): Promise<AdminProduct> {
    checkTerms(input.service_id, input);
    await checkAdditionalProduct(this.deps.db, input.service_id, input, null);
    const row = await this.changed(async (tx) => {
      const [made] = await tx
        .insert(products)
        .values({ serviceId: input.service_id, ...valuesOf(input) })
        .returning();
      if (!made) throw new Error('product insert returned nothing');
      if (made.asMostSelected) await unmarkOtherMostSelected(tx, made);
      await audit(tx, acting, 'products.created', made.id, {
        service_id: made.serviceId,
        name: made.name,
        amount: made.amount,
        currency: made.currency,
      });
      return made;
    });
    return presentAdminProduct(this.deps.db, row);
  }

  async update(acting: Acting, input: ProductUpdateRequest): Promise<AdminProduct> {
    const before = await findProduct(this.deps.db, input.product_id);
    const serviceId = before.serviceId as ServiceId;
    checkTerms(serviceId, input);
    await checkAdditionalProduct(this.deps.db, serviceId, input, before.id);
    await checkAddonStaysUsable(this.deps.db, before, input);
    const row = await this.changed(async (tx) => {
      const [saved] = await tx
        .update(products)
        .set(valuesOf(input))
        .where(and(eq(products.id, before.id), notDeleted))
        .returning();
      if (!saved) throw new AppError('not_found');
      const unmarked = saved.asMostSelected ? await unmarkOtherMostSelected(tx, saved) : [];
      await audit(tx, acting, 'products.updated', saved.id, {
        changes: changesOf(before, saved),
        ...(unmarked.length > 0 ? { most_selected_unmarked: unmarked } : {}),
      });
      return saved;
    });
    return presentAdminProduct(this.deps.db, row);
  }

  /**
   * Soft delete: kept for the subscriptions and invoices that name it, sold and listed no
   * more. Refused while a running subscription uses it; plans let go of it as their addon.
   */
  async delete(acting: Acting, productId: number): Promise<void> {
    await this.changed(async (tx) => {
      const [row] = await tx
        .select()
        .from(products)
        .where(and(eq(products.id, productId), notDeleted))
        .for('update');
      if (!row) throw new AppError('not_found');
      const running = (await runningSubscriptions(tx, [row.id])).get(row.id) ?? 0;
      if (running > 0) throw new AppError('conflict', { info: M.inUse });
      await releaseReferences(tx, [row.id]);
      await tx
        .update(products)
        .set({ deletedAt: sql`now()`, asMostSelected: false })
        .where(eq(products.id, row.id));
      await audit(tx, acting, 'products.deleted', row.id, {
        name: row.name,
        service_id: row.serviceId,
        currency: row.currency,
      });
    });
  }

  /**
   * §2 manage plans and the lists' bulk actions: up to 200 products at once, all or none.
   * Two products of one service and currency both marked "most selected" is refused.
   */
  async massUpdate(acting: Acting, items: ProductMassChange[]): Promise<AdminProduct[]> {
    const ids = [...new Set(items.map((item) => item.product_id))];
    if (ids.length !== items.length) throw AppError.field('items', FIELD_IS_INVALID);
    const rows = await this.changed(async (tx) => {
      const found = await tx.select().from(products).where(inArray(products.id, ids)).for('update');
      const byId = new Map(found.map((row) => [row.id, row]));
      items.forEach((item, index) => {
        if (!byId.has(item.product_id)) {
          throw AppError.field(`items.${index}.product_id`, FIELD_IS_INVALID);
        }
      });
      // A plan another staff member deleted since this list was read has no place on the
      // order page any more: its part of the save is moot, not a reason to refuse the rest.
      const live = items.filter((item) => byId.get(item.product_id)?.deletedAt === null);
      const marking = live.filter((item) => item.as_most_selected === true);
      const groups = marking.map((item) => {
        const row = byId.get(item.product_id);
        return `${row?.serviceId}:${row?.currency}`;
      });
      if (new Set(groups).size !== groups.length)
        throw AppError.field('items', M.mostSelectedTwice);
      const saved: ProductRow[] = [];
      for (const item of live) {
        const { product_id: _id, ...change } = item;
        const [row] = await tx
          .update(products)
          .set({
            visible: change.visible,
            disabled: change.disabled,
            sort: change.sort,
            amount: change.amount,
            amountOld: change.amount_old,
            asMonthlyRate: change.as_monthly_rate,
            discountedBadge: change.discounted_badge,
            asMostSelected: change.as_most_selected,
            updatedAt: sql`now()`,
          })
          .where(eq(products.id, item.product_id))
          .returning();
        if (row) saved.push(row);
      }
      for (const item of marking) {
        const row = byId.get(item.product_id);
        if (row) await unmarkOtherMostSelected(tx, row);
      }
      await recordAudit(tx, acting.request, {
        action: 'products.mass_updated',
        actorId: acting.actor.user.id,
        subjectType: 'product',
        data: { changes: live },
      });
      // Unmarked ones changed too: answer every live product asked about as it is now.
      return tx
        .select()
        .from(products)
        .where(and(inArray(products.id, ids), notDeleted));
    });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return presentAdminProducts(
      this.deps.db,
      ids.flatMap((id) => byId.get(id) ?? []),
    );
  }

  /** The includable addons a plan comes with, replaced as a whole. */
  async setIncludes(acting: Acting, planId: number, addonIds: number[]): Promise<AdminProduct> {
    const plan = await findProduct(this.deps.db, planId);
    if (plan.additional || plan.includable) throw AppError.field('product_id', M.plansOnly);
    const wanted = [...new Set(addonIds)];
    if (wanted.length > 0) {
      const addons = await this.deps.db
        .select({ id: products.id })
        .from(products)
        .where(
          and(
            inArray(products.id, wanted),
            notDeleted,
            ofKind('includable'),
            eq(products.additional, true),
            eq(products.serviceId, plan.serviceId),
            eq(products.currency, plan.currency),
          ),
        );
      if (addons.length !== wanted.length) {
        throw AppError.field('includable_product_ids', M.notIncludable);
      }
    }
    await this.changed(async (tx) => {
      // The plan's row lock keeps two replacements of its set from interleaving.
      await tx
        .select({ id: products.id })
        .from(products)
        .where(eq(products.id, plan.id))
        .for('update');
      const before = await tx
        .select({ id: productIncludes.addonId })
        .from(productIncludes)
        .where(eq(productIncludes.planId, plan.id));
      await tx.delete(productIncludes).where(eq(productIncludes.planId, plan.id));
      if (wanted.length > 0) {
        await tx
          .insert(productIncludes)
          .values(wanted.map((addonId) => ({ planId: plan.id, addonId })));
      }
      await audit(tx, acting, 'products.includes_updated', plan.id, {
        from: before.map((row) => row.id).sort((a, b) => a - b),
        to: [...wanted].sort((a, b) => a - b),
      });
    });
    return presentAdminProduct(this.deps.db, await findProduct(this.deps.db, plan.id));
  }
}
