import { eq } from 'drizzle-orm';
import { analyzeSeo } from '#shared/content/seo-analysis.ts';
import {
  articleEndpoints,
  blogCategoryEndpoints,
  type CategoryEndpoints,
  type ContentItemEndpoints,
  contentEndpoints,
  faqEndpoints,
  helpCategoryEndpoints,
  pageEndpoints,
  postEndpoints,
  seoEndpoints,
} from '#shared/contracts/admin/content.ts';
import { contentSettings } from '../../db/schema/index.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { CategoriesService } from './categories-service.ts';
import { authorsOf } from './content-item.ts';
import { listContent } from './content-query.ts';
import { AREA_KINDS, type ContentArea, ContentService } from './content-service.ts';
import { mediaRoutes } from './media-routes.ts';
import { listRevisions, viewRevision } from './revisions-query.ts';
import { SeoService } from './seo-service.ts';
import { listTags } from './tags-query.ts';

/** §2 staff's content screens; §7 dashboard /pages, /blog, /help-center, /faq (issue 22). */
export function contentRoutes(app: App): Route[] {
  const siteHost = new URL(app.config.appUrl).hostname;
  const content = new ContentService({ db: app.db, siteHost, now: () => new Date() });
  const categories = new CategoriesService(app.db);
  const seo = new SeoService(app.db);
  const done = { success: true } as const;
  // After each committed change: the public site drops the pages it touched.
  const changed = app.contentChanges;
  const itemChanged = (id: number, area: ContentArea) =>
    changed.emit({ type: 'item', id, kinds: AREA_KINDS[area] });
  const sectionChanged = (kind: 'blog' | 'help') =>
    changed.emit({ type: 'section', kinds: kind === 'blog' ? ['post'] : ['article'] });

  /** The category calls of the blog's or the help center's tree. */
  const categoryRoutes = (kind: 'blog' | 'help', e: CategoryEndpoints): Route[] => [
    route(e.list, ({ query }) => categories.list(kind, query)),
    route(e.view, async ({ query }) => ({
      category: await categories.view(kind, query.category_id),
    })),
    route(e.create, async ({ request, auth, body }) => {
      const category = await categories.create({ request, actor: auth }, kind, body);
      sectionChanged(kind);
      return { category };
    }),
    route(e.update, async ({ request, auth, body }) => {
      const category = await categories.update({ request, actor: auth }, kind, body);
      sectionChanged(kind);
      return { success: true as const, category };
    }),
    route(e.delete, async ({ request, auth, body }) => {
      await categories.delete({ request, actor: auth }, kind, body.category_id);
      sectionChanged(kind);
      return { success: true as const };
    }),
    route(e.deleteLang, async ({ request, auth, body }) => {
      await categories.deleteLang({ request, actor: auth }, kind, body.category_id, body.lang);
      sectionChanged(kind);
      return { success: true as const };
    }),
  ];

  /** The view, create, update, delete and delete-lang calls of one area. */
  const itemRoutes = (area: ContentArea, e: ContentItemEndpoints): Route[] => [
    route(e.view, async ({ query, auth }) => ({ item: await content.view(area, query.id, auth) })),
    route(e.create, async ({ request, auth, body }) => {
      const item = await content.create({ request, actor: auth }, area, body);
      itemChanged(item.id, area);
      return { item };
    }),
    route(e.update, async ({ request, auth, body }) => {
      const item = await content.update({ request, actor: auth }, area, body);
      itemChanged(item.id, area);
      return { success: true as const, item };
    }),
    route(e.delete, async ({ request, auth, body }) => {
      await content.delete({ request, actor: auth }, area, body.id);
      itemChanged(body.id, area);
      return { success: true as const };
    }),
    route(e.deleteLang, async ({ request, auth, body }) => {
      await content.deleteLang({ request, actor: auth }, area, body.id, body.lang);
      itemChanged(body.id, area);
      return { success: true as const };
    }),
  ];

  return [
    route(pageEndpoints.list, ({ query }) => listContent(app.db, [query.type], query)),
    ...itemRoutes('pages', pageEndpoints),
    route(postEndpoints.list, ({ query }) => listContent(app.db, AREA_KINDS.posts, query)),
    route(postEndpoints.tags, ({ query }) => listTags(app.db, query)),
    ...itemRoutes('posts', postEndpoints),
    route(articleEndpoints.list, ({ query }) => listContent(app.db, AREA_KINDS.articles, query)),
    ...itemRoutes('articles', articleEndpoints),
    route(articleEndpoints.sort, async ({ request, auth, body }) => {
      await content.sortArticles({ request, actor: auth }, body.category_id, body.ids);
      sectionChanged('help');
      return { success: true as const };
    }),
    ...categoryRoutes('blog', blogCategoryEndpoints),
    ...categoryRoutes('help', helpCategoryEndpoints),
    route(helpCategoryEndpoints.sort, async ({ request, auth, body }) => {
      await categories.sort(
        { request, actor: auth },
        'help',
        body.parent_category_id,
        body.category_ids,
      );
      sectionChanged('help');
      return { success: true as const };
    }),
    route(faqEndpoints.list, ({ query }) => listContent(app.db, AREA_KINDS.faq, query)),
    ...itemRoutes('faq', faqEndpoints),
    ...mediaRoutes(app),
    route(contentEndpoints.authors, async ({ query }) => ({
      items: await authorsOf(app.db, query.kind),
    })),
    route(contentEndpoints.revisions, ({ query }) =>
      listRevisions(app.db, query.id, query.lang, query),
    ),
    route(contentEndpoints.revision, async ({ query }) => ({
      revision: await viewRevision(app.db, query.revision_id),
    })),
    route(contentEndpoints.restore, async ({ request, auth, body }) => {
      const item = await content.restore({ request, actor: auth }, body.revision_id, body.version);
      changed.emit({ type: 'item', id: item.id, kinds: [item.kind] });
      return { success: true as const, item };
    }),
    route(contentEndpoints.analyze, ({ body }) => {
      const text = body.analyze;
      return analyzeSeo({
        lang: text.lang,
        title: text.seo_title || text.name,
        description: text.seo_description,
        slug: text.url,
        keyphrase: text.focus_keyphrase,
        markdown: text.contents,
        siteHost,
      });
    }),
    route(seoEndpoints.mainPages, async () => ({ items: await seo.mainPages() })),
    route(seoEndpoints.updateMainPage, async ({ request, auth, body }) => {
      await seo.updateMainPage({ request, actor: auth }, body);
      changed.emit({ type: 'main_page', page: body.page });
      return done;
    }),
    route(seoEndpoints.mainPageFaq, async ({ request, auth, body }) => {
      await seo.placeFaq({ request, actor: auth }, body);
      changed.emit({ type: 'main_page', page: body.page });
      return done;
    }),
    route(seoEndpoints.updateItem, async ({ request, auth, body }) => {
      await content.updateSeo({ request, actor: auth }, body);
      changed.emit({ type: 'item', id: body.id, kinds: [] });
      return done;
    }),
    route(seoEndpoints.updateCategory, async ({ request, auth, body }) => {
      await seo.updateCategory({ request, actor: auth }, body);
      changed.emit({ type: 'section', kinds: ['post', 'article'] });
      return done;
    }),
    route(contentEndpoints.settings, async () => {
      const [row] = await app.db.select().from(contentSettings).where(eq(contentSettings.id, 1));
      return { authors_can_publish: row?.authorsCanPublish ?? false };
    }),
    route(contentEndpoints.updateSettings, async ({ request, auth, body }) => {
      await app.db.transaction(async (tx) => {
        await tx
          .insert(contentSettings)
          .values({ id: 1, authorsCanPublish: body.authors_can_publish, updatedById: auth.user.id })
          .onConflictDoUpdate({
            target: contentSettings.id,
            set: { authorsCanPublish: body.authors_can_publish, updatedById: auth.user.id },
          });
        await recordAudit(tx, request, {
          action: 'content.settings_updated',
          actorId: auth.user.id,
          subjectType: 'content_settings',
          data: { authors_can_publish: body.authors_can_publish },
        });
      });
      return body;
    }),
  ];
}
