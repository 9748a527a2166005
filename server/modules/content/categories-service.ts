import { and, asc, count, eq, ilike, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { CategoryKind } from '#shared/content/content-values.ts';
import {
  type CategoryUpdateRequest,
  type ContentCategory,
  type categoriesQuery,
  type categoryCreateRequest,
  CONTENT_MESSAGES as M,
} from '#shared/contracts/admin/content.ts';
import { listPage, pageWindow } from '#shared/contracts/list.ts';
import type { Lang } from '#shared/locales.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { containing } from '../../db/like.ts';
import {
  type ContentCategoryRow,
  contentCategories,
  contentCategoryTranslations,
  contentItems,
  contentMedia,
} from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { type Acting, checkMayChangeLive } from './content-service.ts';

type CategoryCreate = z.output<typeof categoryCreateRequest>;

/**
 * A save based on the version of a category's translation that the screen showed: refused
 * when someone saved it since (the row is locked until the save commits). A language not
 * written yet has nothing to overwrite.
 */
export async function checkVersion(db: Database, categoryId: number, lang: Lang, version: number) {
  const [own] = await db
    .select({ version: contentCategoryTranslations.version })
    .from(contentCategoryTranslations)
    .where(
      and(
        eq(contentCategoryTranslations.categoryId, categoryId),
        eq(contentCategoryTranslations.lang, lang),
      ),
    )
    .for('update');
  if (own && own.version !== version) throw new AppError('conflict', { info: M.staleVersion });
}

/** The categories of a tree under one parent (`null`: the top level). */
function siblingsOf(kind: CategoryKind, parentId: number | null) {
  return and(
    eq(contentCategories.kind, kind),
    parentId === null
      ? isNull(contentCategories.parentId)
      : eq(contentCategories.parentId, parentId),
  );
}

/**
 * The blog's categories (flat) and the help center's (a category and its sub-categories,
 * §3 parent_category_id), each in several languages with its own slug, in a manual order.
 */
export class CategoriesService {
  constructor(private readonly db: Database) {}

  async list(kind: CategoryKind, query: z.output<typeof categoriesQuery>) {
    const where: (SQL | undefined)[] = [eq(contentCategories.kind, kind)];
    if (query.parent_category_id !== undefined) {
      where.push(
        query.parent_category_id === 0
          ? isNull(contentCategories.parentId)
          : eq(contentCategories.parentId, query.parent_category_id),
      );
    }
    if (query.search || query.lang) {
      const match: (SQL | undefined)[] = [
        eq(contentCategoryTranslations.categoryId, contentCategories.id),
      ];
      if (query.lang) match.push(eq(contentCategoryTranslations.lang, query.lang));
      if (query.search) {
        match.push(ilike(contentCategoryTranslations.name, containing(query.search)));
      }
      where.push(sql`EXISTS (SELECT 1 FROM ${contentCategoryTranslations} WHERE ${and(...match)})`);
    }
    const { offset, limit } = pageWindow(query);
    // Parents first, then each parent's children, each level in its manual order.
    const rows = await this.db
      .select()
      .from(contentCategories)
      .where(and(...where))
      .orderBy(
        sql`coalesce((SELECT p.position FROM ${contentCategories} p WHERE p.id = ${contentCategories.parentId}), ${contentCategories.position})`,
        sql`${contentCategories.parentId} IS NOT NULL`,
        asc(contentCategories.position),
        asc(contentCategories.id),
      )
      .offset(offset)
      .limit(limit);
    const [total] = await this.db
      .select({ n: count() })
      .from(contentCategories)
      .where(and(...where));
    return listPage(await this.present(this.db, rows), query, total?.n ?? 0);
  }

  private async present(db: Database, rows: ContentCategoryRow[]): Promise<ContentCategory[]> {
    const ids = rows.map((row) => row.id);
    if (ids.length === 0) return [];
    const translations = await db
      .select()
      .from(contentCategoryTranslations)
      .where(inArray(contentCategoryTranslations.categoryId, ids))
      .orderBy(asc(contentCategoryTranslations.lang));
    const counts = await db
      .select({ id: contentItems.categoryId, n: count() })
      .from(contentItems)
      .where(inArray(contentItems.categoryId, ids))
      .groupBy(contentItems.categoryId);
    return rows.map((row) => ({
      category_id: row.id,
      kind: row.kind as CategoryKind,
      parent_category_id: row.parentId,
      position: row.position,
      items_count: counts.find((c) => c.id === row.id)?.n ?? 0,
      translations: translations
        .filter((t) => t.categoryId === row.id)
        .map((t) => ({
          lang: t.lang as Lang,
          name: t.name,
          url: t.slug,
          description: t.description,
          seo_title: t.seoTitle,
          seo_description: t.seoDescription,
          focus_keyphrase: t.focusKeyphrase,
          og_image_id: t.ogImageId,
          canonical_url: t.canonicalUrl,
          version: t.version,
        })),
    }));
  }

  private async find(db: Database, kind: CategoryKind, id: number, lock = false) {
    const select = db
      .select()
      .from(contentCategories)
      .where(and(eq(contentCategories.id, id), eq(contentCategories.kind, kind)));
    const [row] = lock ? await select.for('update') : await select;
    if (!row) throw new AppError('not_found');
    return row;
  }

  async view(kind: CategoryKind, id: number): Promise<ContentCategory> {
    const [category] = await this.present(this.db, [await this.find(this.db, kind, id)]);
    if (!category) throw new AppError('not_found');
    return category;
  }

  /**
   * The parent a category may have: the blog's have none; a help category's parent is a
   * top-level help category other than itself (two levels: a category and its sub-categories).
   */
  private async checkParent(
    db: Database,
    kind: CategoryKind,
    parentId: number | null,
    selfId?: number,
  ): Promise<number | null> {
    if (parentId === null) return null;
    if (kind === 'blog') throw AppError.field('parent_category_id', M.tooDeep);
    if (parentId === selfId) throw AppError.field('parent_category_id', M.ownParent);
    // Locked, like the category moved: two moves at once (this one under that, that one
    // under another) would otherwise each pass the check below and make three levels.
    const [parent] = await db
      .select()
      .from(contentCategories)
      .where(and(eq(contentCategories.id, parentId), eq(contentCategories.kind, kind)))
      .for('update');
    if (!parent) throw AppError.field('parent_category_id', M.categoryKind);
    if (parent.parentId !== null) throw AppError.field('parent_category_id', M.parentHasParent);
    if (selfId !== undefined) {
      const [child] = await db
        .select({ id: contentCategories.id })
        .from(contentCategories)
        .where(eq(contentCategories.parentId, selfId))
        .limit(1);
      // A category with sub-categories of its own would make three levels.
      if (child) throw AppError.field('parent_category_id', M.tooDeep);
    }
    return parentId;
  }

  private async checkSlug(db: Database, kind: CategoryKind, lang: Lang, slug: string, id?: number) {
    const same = and(
      eq(contentCategoryTranslations.kind, kind),
      eq(contentCategoryTranslations.lang, lang),
      eq(contentCategoryTranslations.slug, slug),
    );
    const [taken] = await db
      .select({ id: contentCategoryTranslations.id })
      .from(contentCategoryTranslations)
      .where(id === undefined ? same : and(same, ne(contentCategoryTranslations.categoryId, id)))
      .limit(1);
    if (taken) throw AppError.field('url', M.slugTaken);
  }

  /** An image the category's SEO names must exist (else the database refuses with a 500). */
  private async checkMedia(db: Database, id: number | null) {
    if (id === null) return;
    const [media] = await db
      .select({ id: contentMedia.id })
      .from(contentMedia)
      .where(eq(contentMedia.id, id))
      .for('key share');
    if (!media) throw AppError.field('og_image_id', M.unknownMedia);
  }

  private columns(body: Omit<CategoryCreate, 'parent_category_id'>) {
    return {
      name: body.name,
      slug: body.url,
      description: body.description,
      seoTitle: body.seo_title,
      seoDescription: body.seo_description,
      focusKeyphrase: body.focus_keyphrase,
      ogImageId: body.og_image_id,
      canonicalUrl: body.canonical_url,
    };
  }

  private async nextPosition(db: Database, kind: CategoryKind, parentId: number | null) {
    const [last] = await db
      .select({ position: sql<number>`coalesce(max(${contentCategories.position}), 0)` })
      .from(contentCategories)
      .where(siblingsOf(kind, parentId));
    return Number(last?.position ?? 0) + 1;
  }

  private async write<T>(work: (tx: Database) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(work);
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.field('url', M.slugTaken);
      throw error;
    }
  }

  private audit(
    tx: Database,
    acting: Acting,
    action: Parameters<typeof recordAudit>[2]['action'],
    id: number,
    data: Record<string, unknown>,
  ) {
    return recordAudit(tx, acting.request, {
      action,
      actorId: acting.actor.user.id,
      subjectType: 'content_category',
      subjectId: id,
      data,
    });
  }

  async create(acting: Acting, kind: CategoryKind, body: CategoryCreate): Promise<ContentCategory> {
    const id = await this.write(async (tx) => {
      // A category has no draft: its names, addresses and order are live once saved.
      await checkMayChangeLive(tx, acting.actor);
      const parentId = await this.checkParent(tx, kind, body.parent_category_id);
      await this.checkSlug(tx, kind, body.lang, body.url);
      await this.checkMedia(tx, body.og_image_id);
      const [row] = await tx
        .insert(contentCategories)
        .values({ kind, parentId, position: await this.nextPosition(tx, kind, parentId) })
        .returning();
      if (!row) throw new Error('category not inserted');
      await tx
        .insert(contentCategoryTranslations)
        .values({ categoryId: row.id, kind, lang: body.lang, ...this.columns(body) });
      await this.audit(tx, acting, 'content.category_created', row.id, {
        kind,
        lang: body.lang,
        name: body.name,
      });
      return row.id;
    });
    return this.view(kind, id);
  }

  async update(acting: Acting, kind: CategoryKind, body: CategoryUpdateRequest) {
    await this.write(async (tx) => {
      // A category has no draft: its names, addresses and order are live once saved.
      await checkMayChangeLive(tx, acting.actor);
      const row = await this.find(tx, kind, body.category_id, true);
      if (body.version !== undefined) {
        await checkVersion(tx, row.id, body.lang, body.version);
      }
      const parentId =
        body.parent_category_id === undefined
          ? row.parentId
          : await this.checkParent(tx, kind, body.parent_category_id, row.id);
      await this.checkSlug(tx, kind, body.lang, body.url, row.id);
      await this.checkMedia(tx, body.og_image_id);
      if (parentId !== row.parentId) {
        // A category joins its new siblings at the end.
        await tx
          .update(contentCategories)
          .set({ parentId, position: await this.nextPosition(tx, kind, parentId) })
          .where(eq(contentCategories.id, row.id));
      }
      await tx
        .insert(contentCategoryTranslations)
        .values({ categoryId: row.id, kind, lang: body.lang, ...this.columns(body) })
        .onConflictDoUpdate({
          target: [contentCategoryTranslations.categoryId, contentCategoryTranslations.lang],
          set: { ...this.columns(body), version: sql`${contentCategoryTranslations.version} + 1` },
        });
      await this.audit(tx, acting, 'content.category_updated', row.id, {
        kind,
        lang: body.lang,
        name: body.name,
        parent_category_id: parentId,
      });
    });
    return this.view(kind, body.category_id);
  }

  /** Only an empty category goes: no sub-categories, nothing filed in it. */
  async delete(acting: Acting, kind: CategoryKind, id: number): Promise<void> {
    await this.write(async (tx) => {
      // A category has no draft: its names, addresses and order are live once saved.
      await checkMayChangeLive(tx, acting.actor);
      const row = await this.find(tx, kind, id, true);
      const [child] = await tx
        .select({ n: count() })
        .from(contentCategories)
        .where(eq(contentCategories.parentId, id));
      if ((child?.n ?? 0) > 0) throw new AppError('conflict', { info: M.categoryHasChildren });
      const [items] = await tx
        .select({ n: count() })
        .from(contentItems)
        .where(eq(contentItems.categoryId, id));
      if ((items?.n ?? 0) > 0) throw new AppError('conflict', { info: M.categoryNotEmpty });
      await tx.delete(contentCategories).where(eq(contentCategories.id, id));
      await this.audit(tx, acting, 'content.category_deleted', id, { kind: row.kind });
    });
  }

  async deleteLang(acting: Acting, kind: CategoryKind, id: number, lang: Lang): Promise<void> {
    await this.write(async (tx) => {
      // A category has no draft: its names, addresses and order are live once saved.
      await checkMayChangeLive(tx, acting.actor);
      await this.find(tx, kind, id, true);
      const translations = await tx
        .select({ lang: contentCategoryTranslations.lang })
        .from(contentCategoryTranslations)
        .where(eq(contentCategoryTranslations.categoryId, id));
      if (!translations.some((t) => t.lang === lang)) throw new AppError('not_found');
      if (translations.length === 1) throw new AppError('conflict', { info: M.lastLanguage });
      await tx
        .delete(contentCategoryTranslations)
        .where(
          and(
            eq(contentCategoryTranslations.categoryId, id),
            eq(contentCategoryTranslations.lang, lang),
          ),
        );
      await this.audit(tx, acting, 'content.category_translation_deleted', id, { kind, lang });
    });
  }

  /** A new order of the categories under one parent: the ids given are all of them, once. */
  async sort(acting: Acting, kind: CategoryKind, parentId: number | null, ids: number[]) {
    await this.write(async (tx) => {
      // A category has no draft: its names, addresses and order are live once saved.
      await checkMayChangeLive(tx, acting.actor);
      const siblings = await tx
        .select({ id: contentCategories.id })
        .from(contentCategories)
        .where(siblingsOf(kind, parentId))
        .for('update');
      const known = new Set(siblings.map((s) => s.id));
      if (
        ids.length !== known.size ||
        new Set(ids).size !== ids.length ||
        !ids.every((id) => known.has(id))
      ) {
        throw AppError.field('category_ids', 'input_errors.field_is_invalid');
      }
      for (const [index, id] of ids.entries()) {
        await tx
          .update(contentCategories)
          .set({ position: index + 1 })
          .where(eq(contentCategories.id, id));
      }
      await this.audit(tx, acting, 'content.categories_sorted', parentId ?? 0, {
        kind,
        parent_category_id: parentId,
        category_ids: ids,
      });
    });
  }
}
