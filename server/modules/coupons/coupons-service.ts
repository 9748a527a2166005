import { and, count, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AuditAction } from '#shared/audit-actions.ts';
import {
  type AdminCouponDetail,
  type CouponFields,
  type CouponMassUpdateRequest,
  type CouponUpdateRequest,
  COUPON_MESSAGES as M,
} from '#shared/contracts/admin/coupons.ts';
import { FIELD_IS_INVALID } from '#shared/validation/zod-messages.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import {
  type CouponRow,
  couponProducts,
  couponRedemptions,
  coupons,
  products,
} from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { ActiveSession } from '../identity/sessions.ts';
import { presentCoupon, presentCouponProduct } from './coupon-presenter.ts';

/** The acting admin and their request. */
export interface Acting {
  request: FastifyRequest;
  actor: ActiveSession;
}

export interface CouponsDeps {
  db: Database;
  /** Billing's time, the clock coupons expire by at checkout. */
  now: () => Date;
}

/** The stored columns of a coupon's fields: one discount kind, months only when repeating. */
function columnsOf(fields: CouponFields) {
  const percent = fields.discount_type === 'percent';
  return {
    code: fields.code,
    name: fields.name,
    percentOff: percent ? fields.percent_off : null,
    amountOff: percent ? null : fields.amount_off,
    currency: percent ? null : fields.currency,
    duration: fields.duration,
    durationInMonths: fields.duration === 'repeating' ? fields.duration_in_months : null,
    expiresAt: fields.expires_at ? new Date(fields.expires_at) : null,
    maxRedemptions: fields.max_redemptions,
    preapplied: fields.preapplied,
  };
}
type CouponColumns = ReturnType<typeof columnsOf>;

/** The discount's terms, each with the form field staff would change it by. */
const TERMS = [
  ['percentOff', 'percent_off'],
  ['amountOff', 'amount_off'],
  ['currency', 'currency'],
  ['duration', 'duration'],
  ['durationInMonths', 'duration_in_months'],
] as const;

/** The field of the first term `next` changes on `coupon`, if any. */
function changedTerm(coupon: CouponRow, next: CouponColumns): string | undefined {
  if (next.code.toLowerCase() !== coupon.code.toLowerCase()) return 'code';
  if ((next.percentOff === null) !== (coupon.percentOff === null)) return 'discount_type';
  return TERMS.find(([column]) => next[column] !== coupon[column])?.[1];
}

function audit(
  db: Database,
  { request, actor }: Acting,
  action: AuditAction,
  id: number,
  data: Record<string, unknown>,
) {
  return recordAudit(db, request, {
    action,
    actorId: actor.user.id,
    subjectType: 'coupon',
    subjectId: id,
    data,
  });
}

/**
 * §2 staff's coupons: create, change, delete. Money stays safe: once a coupon has been
 * redeemed (or an order under way took a use of it), the code and discount customers were
 * given are fixed, and its cap never drops below the uses already made.
 */
export class CouponsService {
  constructor(private readonly deps: CouponsDeps) {}

  private async find(db: Database, id: number, lock = false): Promise<CouponRow> {
    const select = db.select().from(coupons).where(eq(coupons.id, id));
    const [coupon] = lock ? await select.for('update') : await select;
    if (!coupon) throw new AppError('not_found');
    return coupon;
  }

  async view(id: number): Promise<AdminCouponDetail> {
    return this.detail(this.deps.db, await this.find(this.deps.db, id));
  }

  private async detail(db: Database, coupon: CouponRow): Promise<AdminCouponDetail> {
    // One after the other: `db` may be a transaction, which runs one query at a time.
    const limited = await db
      .select({ product: products })
      .from(couponProducts)
      .innerJoin(products, eq(products.id, couponProducts.productId))
      .where(eq(couponProducts.couponId, coupon.id))
      .orderBy(products.serviceId, products.currency, products.sort, products.id);
    const [redeemed] = await db
      .select({ n: count() })
      .from(couponRedemptions)
      .where(eq(couponRedemptions.couponId, coupon.id));
    const redemptions = redeemed?.n ?? 0;
    return {
      ...presentCoupon(
        coupon,
        limited.map((row) => row.product.id).sort((a, b) => a - b),
        this.deps.now(),
      ),
      products: limited.map((row) => presentCouponProduct(row.product)),
      redemptions_count: redemptions,
      terms_locked: coupon.timesRedeemed > 0 || redemptions > 0,
    };
  }

  /** A code is one coupon's, in any case (the unique index on lower(code) has the last word). */
  private async codeFree(db: Database, code: string, exceptId?: number): Promise<void> {
    const same = eq(sql`lower(${coupons.code})`, code.toLowerCase());
    const [other] = await db
      .select({ id: coupons.id })
      .from(coupons)
      .where(exceptId === undefined ? same : and(same, ne(coupons.id, exceptId)))
      .limit(1);
    if (other) throw AppError.field('code', M.codeTaken);
  }

  /** The products named exist; ones already limiting the coupon may have been deleted since. */
  private async checkProducts(db: Database, ids: readonly number[], kept: readonly number[]) {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return unique;
    const found = await db
      .select({ id: products.id, deletedAt: products.deletedAt })
      .from(products)
      .where(inArray(products.id, unique));
    const usable = new Set(
      found.filter((row) => row.deletedAt === null || kept.includes(row.id)).map((row) => row.id),
    );
    if (unique.some((id) => !usable.has(id))) throw AppError.field('product_ids', FIELD_IS_INVALID);
    return unique;
  }

  private async setProducts(db: Database, couponId: number, ids: readonly number[]) {
    await db.delete(couponProducts).where(eq(couponProducts.couponId, couponId));
    if (ids.length > 0) {
      await db.insert(couponProducts).values(ids.map((productId) => ({ couponId, productId })));
    }
  }

  /** Runs a change; two staff saving one code at once meet the unique index, not a 500. */
  private async saving<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.field('code', M.codeTaken);
      throw error;
    }
  }

  async create(acting: Acting, fields: CouponFields): Promise<AdminCouponDetail> {
    const columns = columnsOf(fields);
    if (columns.expiresAt && columns.expiresAt <= this.deps.now()) {
      throw AppError.field('expires_at', M.expiryPast);
    }
    await this.codeFree(this.deps.db, columns.code);
    const productIds = await this.checkProducts(this.deps.db, fields.product_ids, []);
    return this.saving(() =>
      this.deps.db.transaction(async (tx) => {
        const [coupon] = await tx.insert(coupons).values(columns).returning();
        if (!coupon) throw new Error('coupon insert returned nothing');
        await this.setProducts(tx, coupon.id, productIds);
        await audit(tx, acting, 'coupons.created', coupon.id, {
          code: coupon.code,
          product_ids: productIds,
        });
        return this.detail(tx, coupon);
      }),
    );
  }

  async update(acting: Acting, input: CouponUpdateRequest): Promise<AdminCouponDetail> {
    const next = columnsOf(input);
    await this.codeFree(this.deps.db, next.code, input.coupon_id);
    return this.saving(() =>
      this.deps.db.transaction(async (tx) => {
        // Locked, so an order reserving a use waits for this change or comes before it.
        const coupon = await this.find(tx, input.coupon_id, true);
        if (coupon.deletedAt) throw new AppError('conflict', { info: M.deleted });
        const [redeemed] = await tx
          .select({ n: count() })
          .from(couponRedemptions)
          .where(eq(couponRedemptions.couponId, coupon.id));
        if (coupon.timesRedeemed > 0 || (redeemed?.n ?? 0) > 0) {
          const changed = changedTerm(coupon, next);
          if (changed) throw AppError.field(changed, M.termsLocked);
        }
        if (next.maxRedemptions !== null && next.maxRedemptions < coupon.timesRedeemed) {
          throw AppError.field('max_redemptions', M.capBelowRedeemed);
        }
        const current = await tx
          .select({ productId: couponProducts.productId })
          .from(couponProducts)
          .where(eq(couponProducts.couponId, coupon.id));
        const productIds = await this.checkProducts(
          tx,
          input.product_ids,
          current.map((row) => row.productId),
        );
        const [updated] = await tx
          .update(coupons)
          .set(next)
          .where(eq(coupons.id, coupon.id))
          .returning();
        if (!updated) throw new AppError('not_found');
        await this.setProducts(tx, coupon.id, productIds);
        await audit(tx, acting, 'coupons.updated', coupon.id, {
          code: updated.code,
          changed: changedFields(coupon, next),
          product_ids: productIds,
        });
        return this.detail(tx, updated);
      }),
    );
  }

  /** Never usable again; kept for the invoices, subscriptions and statistics naming it. */
  async delete(acting: Acting, id: number): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const coupon = await this.find(tx, id, true);
      if (coupon.deletedAt) throw new AppError('conflict', { info: M.deleted });
      await tx.update(coupons).set({ deletedAt: new Date() }).where(eq(coupons.id, id));
      await audit(tx, acting, 'coupons.deleted', id, { code: coupon.code });
    });
  }

  /** One change to the coupons named that are not deleted; answers how many changed. */
  async massUpdate(acting: Acting, input: CouponMassUpdateRequest): Promise<number> {
    const change =
      input.action === 'preapplied'
        ? { preapplied: input.preapplied }
        : input.action === 'expiry'
          ? { expiresAt: input.expires_at ? new Date(input.expires_at) : null }
          : { deletedAt: new Date() };
    return this.deps.db.transaction(async (tx) => {
      const changed = await tx
        .update(coupons)
        .set(change)
        .where(and(inArray(coupons.id, [...new Set(input.ids)]), isNull(coupons.deletedAt)))
        .returning({ id: coupons.id });
      if (changed.length > 0) {
        const { ids: _asked, ...what } = input;
        await recordAudit(tx, acting.request, {
          action: 'coupons.mass_updated',
          actorId: acting.actor.user.id,
          subjectType: 'coupon',
          data: { ...what, ids: changed.map((row) => row.id) },
        });
      }
      return changed.length;
    });
  }
}

/** The fields an update changes, by their form names, for the audit row. */
function changedFields(coupon: CouponRow, next: CouponColumns): string[] {
  const names: Record<keyof CouponColumns, string> = {
    code: 'code',
    name: 'name',
    percentOff: 'percent_off',
    amountOff: 'amount_off',
    currency: 'currency',
    duration: 'duration',
    durationInMonths: 'duration_in_months',
    expiresAt: 'expires_at',
    maxRedemptions: 'max_redemptions',
    preapplied: 'preapplied',
  };
  return (Object.keys(names) as (keyof CouponColumns)[])
    .filter((key) => {
      const before = coupon[key];
      const after = next[key];
      if (before instanceof Date || after instanceof Date) {
        return (before as Date | null)?.getTime() !== (after as Date | null)?.getTime();
      }
      return before !== after;
    })
    .map((key) => names[key]);
}
