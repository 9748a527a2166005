import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { MAIN_PAGES, type MainPage } from '#shared/content/content-values.ts';
import {
  CONTENT_MESSAGES,
  type MainPageSeoItem,
  type mainPageFaqRequest,
  type mainPageSeoRequest,
  type SeoFields,
  type seoCategoryUpdateRequest,
} from '#shared/contracts/admin/content.ts';
import { LANGS } from '#shared/locales.ts';
import type { Database } from '../../db/client.ts';
import {
  contentCategoryTranslations,
  contentItems,
  contentMedia,
  mainPageFaqs,
  mainPageSeo,
} from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { checkVersion } from './categories-service.ts';
import { type Acting, checkMayChangeLive } from './content-service.ts';

const columns = (fields: SeoFields) => ({
  seoTitle: fields.seo_title,
  seoDescription: fields.seo_description,
  focusKeyphrase: fields.focus_keyphrase,
  ogImageId: fields.og_image_id,
  canonicalUrl: fields.canonical_url,
});

/**
 * §2 /admin/seo: the main pages' SEO settings per language, which FAQ a main page shows,
 * and the SEO fields of items and categories changed on their own.
 */
export class SeoService {
  constructor(private readonly db: Database) {}

  /** A main page's settings and FAQ, and a category's SEO, are live the moment they are saved. */
  private checkLive(db: Database, acting: Acting) {
    return checkMayChangeLive(db, acting.actor);
  }

  async mainPages(): Promise<MainPageSeoItem[]> {
    const rows = await this.db.select().from(mainPageSeo);
    const faqs = await this.db.select().from(mainPageFaqs);
    return MAIN_PAGES.map((page) => ({
      page,
      faq_id: faqs.find((f) => f.page === page)?.faqItemId ?? null,
      translations: LANGS.map((lang) => {
        const row = rows.find((r) => r.page === page && r.lang === lang);
        return {
          lang,
          seo_title: row?.title ?? '',
          seo_description: row?.description ?? '',
          focus_keyphrase: row?.focusKeyphrase ?? '',
          og_image_id: row?.ogImageId ?? null,
          canonical_url: row?.canonicalUrl ?? '',
          updated_at: row?.updatedAt.toISOString() ?? null,
        };
      }),
    }));
  }

  private async checkMedia(db: Database, id: number | null) {
    if (id === null) return;
    const [media] = await db
      .select({ id: contentMedia.id })
      .from(contentMedia)
      .where(eq(contentMedia.id, id))
      .for('key share');
    if (!media) throw AppError.field('og_image_id', CONTENT_MESSAGES.unknownMedia);
  }

  private audit(
    db: Database,
    acting: Acting,
    subjectType: string,
    subjectId: string | number,
    data: Record<string, unknown>,
  ) {
    return recordAudit(db, acting.request, {
      action: 'content.seo_updated',
      actorId: acting.actor.user.id,
      subjectType,
      subjectId,
      data,
    });
  }

  async updateMainPage(acting: Acting, body: z.output<typeof mainPageSeoRequest>): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.checkLive(tx, acting);
      await this.checkMedia(tx, body.og_image_id);
      const values = {
        title: body.seo_title,
        description: body.seo_description,
        focusKeyphrase: body.focus_keyphrase,
        ogImageId: body.og_image_id,
        canonicalUrl: body.canonical_url,
        updatedById: acting.actor.user.id,
      };
      await tx
        .insert(mainPageSeo)
        .values({ page: body.page, lang: body.lang, ...values })
        .onConflictDoUpdate({ target: [mainPageSeo.page, mainPageSeo.lang], set: values });
      await this.audit(tx, acting, 'main_page', body.page, { lang: body.lang });
    });
  }

  async placeFaq(acting: Acting, body: z.output<typeof mainPageFaqRequest>): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.checkLive(tx, acting);
      if (body.faq_id === null) {
        await tx.delete(mainPageFaqs).where(eq(mainPageFaqs.page, body.page));
      } else {
        const [faq] = await tx
          .select({ id: contentItems.id })
          .from(contentItems)
          .where(and(eq(contentItems.id, body.faq_id), eq(contentItems.kind, 'faq')));
        if (!faq) throw AppError.field('faq_id', 'input_errors.field_is_invalid');
        await tx
          .insert(mainPageFaqs)
          .values({ page: body.page, faqItemId: faq.id })
          .onConflictDoUpdate({ target: mainPageFaqs.page, set: { faqItemId: faq.id } });
      }
      await recordAudit(tx, acting.request, {
        action: 'content.faq_placed',
        actorId: acting.actor.user.id,
        subjectType: 'main_page',
        subjectId: body.page satisfies MainPage,
        data: { faq_id: body.faq_id },
      });
    });
  }

  async updateCategory(
    acting: Acting,
    body: z.output<typeof seoCategoryUpdateRequest>,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.checkLive(tx, acting);
      await checkVersion(tx, body.category_id, body.lang, body.version);
      await this.checkMedia(tx, body.og_image_id);
      const updated = await tx
        .update(contentCategoryTranslations)
        .set({ ...columns(body), version: sql`${contentCategoryTranslations.version} + 1` })
        .where(
          and(
            eq(contentCategoryTranslations.categoryId, body.category_id),
            eq(contentCategoryTranslations.lang, body.lang),
          ),
        )
        .returning({ id: contentCategoryTranslations.id });
      if (updated.length === 0) throw new AppError('not_found');
      await this.audit(tx, acting, 'content_category', body.category_id, { lang: body.lang });
    });
  }
}
