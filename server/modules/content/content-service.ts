import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AuditAction } from '#shared/audit-actions.ts';
import {
  type ContentKind,
  type ContentState,
  slugSpaceOf,
} from '#shared/content/content-values.ts';
import { isReservedPageSlug } from '#shared/content/reserved-slugs.ts';
import { slugify } from '#shared/content/slugify.ts';
import {
  type ContentCreateRequest,
  type ContentItem,
  type ContentUpdateRequest,
  CONTENT_MESSAGES as M,
  type SeoFields,
} from '#shared/contracts/admin/content.ts';
import type { Lang } from '#shared/locales.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import {
  type ContentItemRow,
  type ContentTranslationRow,
  contentCategories,
  contentItems,
  contentMedia,
  contentMediaUses,
  contentRedirects,
  contentRevisions,
  contentSettings,
  contentTags,
  contentTranslations,
  contentTranslationTags,
  type RevisionSnapshot,
} from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { ActiveSession } from '../identity/sessions.ts';
import { loadContentItem } from './content-item.ts';
import { renderBody } from './render-body.ts';
import { findRevision } from './revisions-query.ts';

/** The acting staff member and their request. */
export interface Acting {
  request: FastifyRequest | null;
  actor: ActiveSession;
}

export interface ContentDeps {
  db: Database;
  /** The site's own host: links to it are internal. */
  siteHost: string;
  now: () => Date;
}

/** The kinds each §7 area's calls act on. */
export type ContentArea = 'pages' | 'posts' | 'articles' | 'faq';
export const AREA_KINDS: Record<ContentArea, readonly ContentKind[]> = {
  pages: ['page', 'static_page'],
  posts: ['post'],
  articles: ['article'],
  faq: ['faq'],
};
/** What a create in each area makes (static pages are the site's own, never created). */
const CREATED_KIND: Record<ContentArea, ContentKind> = {
  pages: 'page',
  posts: 'post',
  articles: 'article',
  faq: 'faq',
};
/** The category tree an item of each kind is filed in. */
const CATEGORY_KIND: Partial<Record<ContentKind, 'blog' | 'help'>> = {
  post: 'blog',
  article: 'help',
};

/** The §7 area whose calls act on items of a kind. */
export function areaOf(kind: ContentKind): ContentArea {
  const area = (Object.keys(AREA_KINDS) as ContentArea[]).find((a) => AREA_KINDS[a].includes(kind));
  if (!area) throw new Error(`no area for ${kind}`);
  return area;
}

/** Autosaves of one person within this time fold into their last revision. */
const AUTOSAVE_FOLD_MS = 10 * 60_000;

type TranslationInput = Omit<ContentCreateRequest, 'category_id' | 'cover_image_id'>;

/** The fields a revision compares, as the snapshot holds them. */
const SNAPSHOT_FIELDS = [
  ['title', 'name'],
  ['slug', 'url'],
  ['summary', 'summary'],
  ['bodyMd', 'contents'],
  ['questions', 'questions'],
  ['seoTitle', 'seo_title'],
  ['seoDescription', 'seo_description'],
  ['focusKeyphrase', 'focus_keyphrase'],
  ['canonicalUrl', 'canonical_url'],
  ['ogImageId', 'og_image_id'],
  ['state', 'state'],
  ['publishAt', 'publish_at'],
  ['unpublishAt', 'unpublish_at'],
  ['tags', 'tags'],
] as const satisfies readonly (readonly [keyof RevisionSnapshot, string])[];

function changedFields(before: RevisionSnapshot | undefined, after: RevisionSnapshot): string[] {
  return SNAPSHOT_FIELDS.filter(
    ([field]) => !before || JSON.stringify(before[field]) !== JSON.stringify(after[field]),
  ).map(([, name]) => name);
}

/** Tags in one order wherever a snapshot is made, so the same set never counts as a change. */
const inTagOrder = (names: readonly string[]) => [...names].sort();

/** An instant as stored: any offset the client wrote it in is the same instant. */
const instant = (value: string | null) => (value ? new Date(value).toISOString() : null);

function snapshotOf(fields: TranslationInput, tags: string[]): RevisionSnapshot {
  return {
    title: fields.name,
    slug: fields.url,
    summary: fields.summary,
    bodyMd: fields.contents,
    questions: fields.questions.map((q) => ({ question: q.question, answerMd: q.answer })),
    seoTitle: fields.seo_title,
    seoDescription: fields.seo_description,
    focusKeyphrase: fields.focus_keyphrase,
    canonicalUrl: fields.canonical_url,
    ogImageId: fields.og_image_id,
    state: fields.state,
    publishAt: instant(fields.publish_at),
    unpublishAt: instant(fields.unpublish_at),
    tags: inTagOrder(tags),
  };
}

/** A translation's stored text (a row or a revision), with the state and dates of `publishing`. */
function inputOf(
  lang: Lang,
  text: Pick<
    RevisionSnapshot,
    | 'title'
    | 'slug'
    | 'summary'
    | 'bodyMd'
    | 'seoTitle'
    | 'seoDescription'
    | 'focusKeyphrase'
    | 'canonicalUrl'
    | 'ogImageId'
    | 'questions'
    | 'tags'
  >,
  publishing: ContentTranslationRow,
): TranslationInput {
  return {
    lang,
    name: text.title,
    url: text.slug,
    summary: text.summary,
    contents: text.bodyMd,
    questions: text.questions.map((q) => ({ question: q.question, answer: q.answerMd })),
    tags: text.tags,
    seo_title: text.seoTitle,
    seo_description: text.seoDescription,
    focus_keyphrase: text.focusKeyphrase,
    canonical_url: text.canonicalUrl,
    og_image_id: text.ogImageId,
    state: publishing.state as ContentState,
    publish_at: publishing.publishAt?.toISOString() ?? null,
    unpublish_at: publishing.unpublishAt?.toISOString() ?? null,
  };
}

/** Admins publish; authors only when an admin allows it in the content settings. */
export async function mayPublish(db: Database, actor: ActiveSession): Promise<boolean> {
  if (actor.user.role === 'ADMIN') return true;
  const [settings] = await db.select().from(contentSettings).where(eq(contentSettings.id, 1));
  return settings?.authorsCanPublish ?? false;
}

/**
 * A change the live site shows at once, with no draft to hold it (a category, an order, a main
 * page's settings, an image taken off pages): refused unless the actor may publish.
 */
export async function checkMayChangeLive(db: Database, actor: ActiveSession): Promise<void> {
  if (!(await mayPublish(db, actor))) {
    throw new AppError('forbidden', { info: M.liveSettingsNotAllowed });
  }
}

/** Tag names once each, in the order given, by their slug. */
function distinctTags(names: readonly string[]): { name: string; slug: string }[] {
  const bySlug = new Map<string, string>();
  for (const name of names) {
    const slug = slugify(name);
    if (slug && !bySlug.has(slug)) bySlug.set(slug, name.trim());
  }
  return [...bySlug].map(([slug, name]) => ({ name, slug }));
}

/**
 * Staff's content (issue 22): items in several languages, each translation saved with its
 * rendered body, a revision, a redirect from a published slug that changed, its tags and the
 * media it uses, and an audit row, all in one transaction.
 */
export class ContentService {
  constructor(private readonly deps: ContentDeps) {}

  canPublish(db: Database, actor: ActiveSession): Promise<boolean> {
    return mayPublish(db, actor);
  }

  private async findItem(
    db: Database,
    area: ContentArea,
    id: number,
    lock = false,
  ): Promise<ContentItemRow> {
    const select = db.select().from(contentItems).where(eq(contentItems.id, id));
    const [item] = lock ? await select.for('update') : await select;
    if (!item || !AREA_KINDS[area].includes(item.kind as ContentKind)) {
      throw new AppError('not_found');
    }
    return item;
  }

  async view(area: ContentArea, id: number, actor: ActiveSession): Promise<ContentItem> {
    const item = await this.findItem(this.deps.db, area, id);
    return loadContentItem(this.deps.db, item, await this.canPublish(this.deps.db, actor));
  }

  private audit(db: Database, acting: Acting, action: AuditAction, id: number, data = {}) {
    return recordAudit(db, acting.request, {
      action,
      actorId: acting.actor.user.id,
      subjectType: 'content',
      subjectId: id,
      data,
    });
  }

  /** A category of the tree the item's kind is filed in, or none. */
  private async checkCategory(db: Database, kind: ContentKind, id: number | null | undefined) {
    if (id === undefined || id === null) return id;
    const tree = CATEGORY_KIND[kind];
    const [category] = await db
      .select({ kind: contentCategories.kind })
      .from(contentCategories)
      .where(eq(contentCategories.id, id));
    if (!tree || category?.kind !== tree) throw AppError.field('category_id', M.categoryKind);
    return id;
  }

  private async checkMedia(db: Database, field: string, id: number | null | undefined) {
    if (id === undefined || id === null) return;
    // Held until the save commits: a delete of the image waits, rather than making the
    // save's reference fail (a 500) after this check passed.
    const [media] = await db
      .select({ id: contentMedia.id })
      .from(contentMedia)
      .where(eq(contentMedia.id, id))
      .for('key share');
    if (!media) throw AppError.field(field, M.unknownMedia);
  }

  /** The slug is free in its space and language (a redirect of another item gives way). */
  private async checkSlug(
    db: Database,
    item: ContentItemRow,
    lang: Lang,
    slug: string,
    own: ContentTranslationRow | undefined,
  ) {
    const space = slugSpaceOf(item.kind as ContentKind);
    if (space === 'page' && isReservedPageSlug(slug, item.key)) {
      throw AppError.field('url', M.slugReserved);
    }
    const same = and(
      eq(contentTranslations.space, space),
      eq(contentTranslations.lang, lang),
      eq(contentTranslations.slug, slug),
    );
    const [taken] = await db
      .select({ id: contentTranslations.id })
      .from(contentTranslations)
      .where(own ? and(same, ne(contentTranslations.id, own.id)) : same)
      .limit(1);
    if (taken) throw AppError.field('url', M.slugTaken);
    await db
      .delete(contentRedirects)
      .where(
        and(
          eq(contentRedirects.space, space),
          eq(contentRedirects.lang, lang),
          eq(contentRedirects.fromSlug, slug),
        ),
      );
  }

  /** Whether the actor may leave the translation in `state` (and change it at all). */
  private async checkPublishing(
    db: Database,
    actor: ActiveSession,
    own: ContentTranslationRow | undefined,
    fields: TranslationInput,
  ) {
    if (await this.canPublish(db, actor)) return;
    if (own && own.state !== 'draft' && own.state !== 'unpublished') {
      throw new AppError('forbidden', { info: M.editPublishedNotAllowed });
    }
    // Taking text down is not publishing: an unpublished text may be saved as it is.
    const stays = fields.state === 'unpublished' && own?.state === 'unpublished';
    if (fields.state !== 'draft' && !stays) throw AppError.field('state', M.publishNotAllowed);
  }

  /** Publication dates as stored: a publication without a date is now. */
  private dates(fields: TranslationInput, own: ContentTranslationRow | undefined) {
    const now = this.deps.now();
    const publishAt = fields.publish_at ? new Date(fields.publish_at) : null;
    const unpublishAt = fields.unpublish_at ? new Date(fields.unpublish_at) : null;
    const changedSchedule =
      fields.state === 'scheduled' &&
      (own?.state !== 'scheduled' || own.publishAt?.getTime() !== publishAt?.getTime());
    if (changedSchedule && publishAt && publishAt <= now) {
      throw AppError.field('publish_at', M.publishAtPast);
    }
    if (unpublishAt && unpublishAt <= now && fields.state !== 'unpublished') {
      throw AppError.field('unpublish_at', M.publishAtPast);
    }
    // Published now, or on an earlier date staff give (a post moved from elsewhere keeps its
    // date); the first publication's date stays through later saves.
    const firstPublished =
      fields.state === 'published'
        ? new Date(Math.min(publishAt?.getTime() ?? now.getTime(), now.getTime()))
        : null;
    return {
      publishAt: fields.state === 'scheduled' ? publishAt : null,
      unpublishAt,
      publishedAt: own?.publishedAt ?? firstPublished,
    };
  }

  private async tagNamesOf(db: Database, translationId: number): Promise<string[]> {
    const rows = await db
      .select({ name: contentTags.name })
      .from(contentTranslationTags)
      .innerJoin(contentTags, eq(contentTags.id, contentTranslationTags.tagId))
      .where(eq(contentTranslationTags.translationId, translationId))
      .orderBy(sql`lower(${contentTags.name})`);
    return rows.map((row) => row.name);
  }

  private async saveTags(db: Database, translationId: number, lang: Lang, names: string[]) {
    await db
      .delete(contentTranslationTags)
      .where(eq(contentTranslationTags.translationId, translationId));
    const tags = distinctTags(names);
    if (tags.length === 0) return;
    await db
      .insert(contentTags)
      .values(tags.map((tag) => ({ lang, ...tag })))
      .onConflictDoNothing();
    const rows = await db
      .select({ id: contentTags.id })
      .from(contentTags)
      .where(
        and(
          eq(contentTags.lang, lang),
          inArray(
            contentTags.slug,
            tags.map((tag) => tag.slug),
          ),
        ),
      );
    await db
      .insert(contentTranslationTags)
      .values(rows.map((row) => ({ translationId, tagId: row.id })));
  }

  private async saveMediaUses(db: Database, translationId: number, ids: (number | null)[]) {
    await db.delete(contentMediaUses).where(eq(contentMediaUses.translationId, translationId));
    const unique = [...new Set(ids.filter((id): id is number => id !== null))];
    if (unique.length === 0) return;
    await db
      .insert(contentMediaUses)
      .values(unique.map((mediaId) => ({ mediaId, translationId })))
      .onConflictDoNothing();
  }

  /** Adds a revision, or folds an autosave into the same person's recent one. */
  private async saveRevision(
    db: Database,
    actor: ActiveSession,
    translationId: number,
    snapshot: RevisionSnapshot,
    changed: string[],
    autosave: boolean,
  ): Promise<'added' | 'folded'> {
    if (autosave) {
      const [last] = await db
        .select()
        .from(contentRevisions)
        .where(eq(contentRevisions.translationId, translationId))
        .orderBy(desc(contentRevisions.id))
        .limit(1);
      const recent =
        last?.autosave &&
        last.authorId === actor.user.id &&
        this.deps.now().getTime() - last.createdAt.getTime() < AUTOSAVE_FOLD_MS;
      if (recent) {
        await db
          .update(contentRevisions)
          .set({ snapshot, changed: [...new Set([...last.changed, ...changed])] })
          .where(eq(contentRevisions.id, last.id));
        return 'folded';
      }
    }
    await db
      .insert(contentRevisions)
      .values({ translationId, authorId: actor.user.id, snapshot, changed, autosave });
    return 'added';
  }

  /**
   * Saves one translation of `item` (adding it when the language is new). Answers whether
   * anything changed.
   */
  private async saveTranslation(
    db: Database,
    acting: Acting,
    item: ContentItemRow,
    fields: TranslationInput,
    options: { version?: number; autosave?: boolean },
  ): Promise<{ translationId: number; changed: string[]; revision: 'added' | 'folded' | null }> {
    const [own] = await db
      .select()
      .from(contentTranslations)
      .where(
        and(eq(contentTranslations.itemId, item.id), eq(contentTranslations.lang, fields.lang)),
      )
      .for('update');
    if (own && options.version !== undefined && own.version !== options.version) {
      throw new AppError('conflict', { info: M.staleVersion });
    }
    // The editor saves drafts on its own; anything live is saved by a person's decision.
    if (options.autosave && (fields.state !== 'draft' || (own && own.state !== 'draft'))) {
      throw new AppError('conflict', { info: M.autosaveDraftOnly });
    }
    await this.checkPublishing(db, acting.actor, own, fields);
    const dates = this.dates(fields, own);
    await this.checkSlug(db, item, fields.lang, fields.url, own);
    await this.checkMedia(db, 'og_image_id', fields.og_image_id);
    const questions = item.kind === 'faq' ? fields.questions : [];
    const tags = item.kind === 'post' ? distinctTags(fields.tags).map((tag) => tag.name) : [];
    const input = { ...fields, questions, tags };
    const snapshot = snapshotOf(input, tags);
    const ownTags = own ? await this.tagNamesOf(db, own.id) : [];
    const before = own
      ? snapshotOf(inputOf(fields.lang, { ...own, tags: ownTags }, own), ownTags)
      : undefined;
    const changed = changedFields(before, snapshot);
    if (own && changed.length === 0) return { translationId: own.id, changed, revision: null };

    const rendered = await renderBody(
      db,
      fields.lang,
      fields.contents,
      questions,
      this.deps.siteHost,
    );
    const columns = {
      title: fields.name,
      slug: fields.url,
      summary: fields.summary,
      bodyMd: fields.contents,
      bodyHtml: rendered.body.html,
      toc: rendered.body.toc,
      words: rendered.body.words,
      readingMinutes: rendered.body.readingMinutes,
      questions: rendered.questions,
      seoTitle: fields.seo_title,
      seoDescription: fields.seo_description,
      focusKeyphrase: fields.focus_keyphrase,
      ogImageId: fields.og_image_id,
      canonicalUrl: fields.canonical_url,
      state: fields.state,
      ...dates,
      updatedById: acting.actor.user.id,
    };
    let translationId: number;
    if (own) {
      await db
        .update(contentTranslations)
        .set({ ...columns, version: sql`${contentTranslations.version} + 1` })
        .where(eq(contentTranslations.id, own.id));
      translationId = own.id;
      // A published address that changes keeps answering, with a redirect to the new one.
      if (own.slug !== fields.url && own.publishedAt) {
        await db
          .insert(contentRedirects)
          .values({ space: own.space, lang: own.lang, fromSlug: own.slug, translationId })
          .onConflictDoUpdate({
            target: [contentRedirects.space, contentRedirects.lang, contentRedirects.fromSlug],
            set: { translationId },
          });
      }
    } else {
      const [created] = await db
        .insert(contentTranslations)
        .values({
          ...columns,
          itemId: item.id,
          space: slugSpaceOf(item.kind as ContentKind),
          lang: fields.lang,
          authorId: acting.actor.user.id,
        })
        .returning({ id: contentTranslations.id });
      if (!created) throw new Error('translation not inserted');
      translationId = created.id;
    }
    if (item.kind === 'post') await this.saveTags(db, translationId, fields.lang, tags);
    // The item's cover is counted from the item itself (the library's uses): a row per
    // translation would outlive a cover changed or removed in another language's save.
    await this.saveMediaUses(db, translationId, [...rendered.mediaIds, fields.og_image_id]);
    const revision = await this.saveRevision(
      db,
      acting.actor,
      translationId,
      snapshot,
      changed,
      options.autosave ?? false,
    );
    return { translationId, changed, revision };
  }

  /** Runs `work` in a transaction; a slug taken meanwhile is a field error, not a 500. */
  private async write<T>(work: (tx: Database) => Promise<T>): Promise<T> {
    try {
      return await this.deps.db.transaction(work);
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.field('url', M.slugTaken);
      throw error;
    }
  }

  async create(
    acting: Acting,
    area: ContentArea,
    body: ContentCreateRequest,
  ): Promise<ContentItem> {
    const kind = CREATED_KIND[area];
    const id = await this.write(async (tx) => {
      const categoryId = await this.checkCategory(tx, kind, body.category_id);
      await this.checkMedia(tx, 'cover_image_id', body.cover_image_id);
      const [item] = await tx
        .insert(contentItems)
        .values({
          kind,
          categoryId: categoryId ?? null,
          coverImageId: body.cover_image_id ?? null,
          position: await this.nextPosition(tx, kind, categoryId ?? null),
          authorId: acting.actor.user.id,
        })
        .returning();
      if (!item) throw new Error('item not inserted');
      await this.saveTranslation(tx, acting, item, body, {});
      await this.audit(tx, acting, 'content.created', item.id, {
        kind,
        lang: body.lang,
        name: body.name,
        state: body.state,
      });
      return item.id;
    });
    return this.view(area, id, acting.actor);
  }

  async update(
    acting: Acting,
    area: ContentArea,
    body: ContentUpdateRequest,
  ): Promise<ContentItem> {
    await this.write(async (tx) => {
      const item = await this.findItem(tx, area, body.id, true);
      const itemChanges: Partial<ContentItemRow> = {};
      if (body.category_id !== undefined && body.category_id !== item.categoryId) {
        itemChanges.categoryId = await this.checkCategory(
          tx,
          item.kind as ContentKind,
          body.category_id,
        );
      }
      if (body.cover_image_id !== undefined && body.cover_image_id !== item.coverImageId) {
        await this.checkMedia(tx, 'cover_image_id', body.cover_image_id);
        itemChanges.coverImageId = body.cover_image_id;
      }
      if (Object.keys(itemChanges).length > 0) {
        // The category and cover show in every language: one a live translation shows is
        // changed only by someone who may publish.
        if (!(await this.canPublish(tx, acting.actor))) await this.checkAllDrafts(tx, item.id);
        if (itemChanges.categoryId !== undefined) {
          itemChanges.position = await this.nextPosition(
            tx,
            item.kind as ContentKind,
            itemChanges.categoryId,
          );
        }
      }
      const saved = await this.saveTranslation(tx, acting, item, body, {
        version: body.version,
        autosave: body.autosave,
      });
      const itemChanged = Object.keys(itemChanges).length > 0;
      if (itemChanged || saved.changed.length > 0) {
        await tx
          .update(contentItems)
          .set({ ...itemChanges, updatedAt: this.deps.now() })
          .where(eq(contentItems.id, item.id));
      }
      // An autosave folded into a revision already audited is the same change going on.
      if (itemChanged || saved.revision === 'added') {
        await this.audit(tx, acting, 'content.updated', item.id, {
          kind: item.kind,
          lang: body.lang,
          // Named as the request names them; the position follows a new category.
          changed: [
            ...saved.changed,
            ...(itemChanges.categoryId !== undefined ? ['category_id'] : []),
            ...(itemChanges.coverImageId !== undefined ? ['cover_image_id'] : []),
          ],
          state: body.state,
        });
      }
    });
    return this.view(area, body.id, acting.actor);
  }

  /**
   * Saves a revision's text as the current one, a new revision on top: title, address, body,
   * questions, summary, SEO fields and tags come back; the state and dates stay as they are
   * (restoring never publishes or takes down).
   */
  async restore(acting: Acting, revisionId: number, version?: number): Promise<ContentItem> {
    const { revision, itemId, lang } = await findRevision(this.deps.db, revisionId);
    const area = areaOf(await this.kindOf(itemId));
    await this.write(async (tx) => {
      const item = await this.findItem(tx, area, itemId, true);
      const [current] = await tx
        .select()
        .from(contentTranslations)
        .where(and(eq(contentTranslations.itemId, itemId), eq(contentTranslations.lang, lang)));
      if (!current) throw new AppError('not_found');
      const saved = await this.saveTranslation(
        tx,
        acting,
        item,
        inputOf(lang, revision.snapshot, current),
        { version },
      );
      await this.audit(tx, acting, 'content.revision_restored', itemId, {
        kind: item.kind,
        lang,
        revision_id: revisionId,
        changed: saved.changed,
      });
    });
    return this.view(area, itemId, acting.actor);
  }

  /** The place after the last item of a kind in a category (an item joins at the end). */
  private async nextPosition(db: Database, kind: ContentKind, categoryId: number | null) {
    const [last] = await db
      .select({ position: sql<number>`coalesce(max(${contentItems.position}), 0)` })
      .from(contentItems)
      .where(
        categoryId
          ? and(eq(contentItems.kind, kind), eq(contentItems.categoryId, categoryId))
          : eq(contentItems.kind, kind),
      );
    return Number(last?.position ?? 0) + 1;
  }

  /**
   * The SEO fields of one translation, changed alone (the SEO screens): a save like the
   * editor's, with its version check, publishing rule, revision and audit.
   */
  async updateSeo(
    acting: Acting,
    body: SeoFields & { id: number; lang: Lang; version: number },
  ): Promise<void> {
    const area = areaOf(await this.kindOf(body.id));
    await this.write(async (tx) => {
      const item = await this.findItem(tx, area, body.id, true);
      const [current] = await tx
        .select()
        .from(contentTranslations)
        .where(
          and(eq(contentTranslations.itemId, item.id), eq(contentTranslations.lang, body.lang)),
        );
      if (!current) throw new AppError('not_found');
      const text = inputOf(
        body.lang,
        { ...current, tags: await this.tagNamesOf(tx, current.id) },
        current,
      );
      const saved = await this.saveTranslation(
        tx,
        acting,
        item,
        {
          ...text,
          seo_title: body.seo_title,
          seo_description: body.seo_description,
          focus_keyphrase: body.focus_keyphrase,
          canonical_url: body.canonical_url,
          og_image_id: body.og_image_id,
        },
        { version: body.version },
      );
      if (saved.changed.length > 0) {
        await this.audit(tx, acting, 'content.seo_updated', item.id, {
          kind: item.kind,
          lang: body.lang,
          changed: saved.changed,
        });
      }
    });
  }

  private async kindOf(itemId: number): Promise<ContentKind> {
    const [item] = await this.deps.db
      .select({ kind: contentItems.kind })
      .from(contentItems)
      .where(eq(contentItems.id, itemId));
    if (!item) throw new AppError('not_found');
    return item.kind as ContentKind;
  }

  /** A new order of one help category's articles: the ids given are all of them, once. */
  async sortArticles(acting: Acting, categoryId: number, ids: number[]): Promise<void> {
    await this.write(async (tx) => {
      // The help center shows articles in this order at once: a live change.
      await checkMayChangeLive(tx, acting.actor);
      const articles = await tx
        .select({ id: contentItems.id })
        .from(contentItems)
        .where(and(eq(contentItems.kind, 'article'), eq(contentItems.categoryId, categoryId)))
        .for('update');
      const known = new Set(articles.map((a) => a.id));
      if (
        articles.length === 0 ||
        ids.length !== known.size ||
        new Set(ids).size !== ids.length ||
        !ids.every((id) => known.has(id))
      ) {
        throw AppError.field('ids', 'input_errors.field_is_invalid');
      }
      for (const [index, id] of ids.entries()) {
        await tx
          .update(contentItems)
          .set({ position: index + 1 })
          .where(eq(contentItems.id, id));
      }
      await recordAudit(tx, acting.request, {
        action: 'content.sorted',
        actorId: acting.actor.user.id,
        subjectType: 'content_category',
        subjectId: categoryId,
        data: { ids },
      });
    });
  }

  async delete(acting: Acting, area: ContentArea, id: number): Promise<void> {
    await this.write(async (tx) => {
      const item = await this.findItem(tx, area, id, true);
      if (item.kind === 'static_page') {
        throw new AppError('conflict', { info: M.staticPageDelete });
      }
      const names = await tx
        .select({ lang: contentTranslations.lang, name: contentTranslations.title })
        .from(contentTranslations)
        .where(eq(contentTranslations.itemId, id));
      if (!(await this.canPublish(tx, acting.actor))) await this.checkAllDrafts(tx, id);
      await tx.delete(contentItems).where(eq(contentItems.id, id));
      await this.audit(tx, acting, 'content.deleted', id, { kind: item.kind, names });
    });
  }

  /** Someone who may not publish may not take published text down either. */
  private async checkAllDrafts(db: Database, id: number, lang?: Lang) {
    const rows = await db
      .select({ state: contentTranslations.state })
      .from(contentTranslations)
      .where(
        lang
          ? and(eq(contentTranslations.itemId, id), eq(contentTranslations.lang, lang))
          : eq(contentTranslations.itemId, id),
      );
    if (rows.some((row) => row.state === 'published' || row.state === 'scheduled')) {
      throw new AppError('forbidden', { info: M.editPublishedNotAllowed });
    }
  }

  async deleteLang(acting: Acting, area: ContentArea, id: number, lang: Lang): Promise<void> {
    await this.write(async (tx) => {
      const item = await this.findItem(tx, area, id, true);
      const translations = await tx
        .select({ id: contentTranslations.id, lang: contentTranslations.lang })
        .from(contentTranslations)
        .where(eq(contentTranslations.itemId, id));
      const own = translations.find((row) => row.lang === lang);
      if (!own) throw new AppError('not_found');
      // An item is always in at least one language: deleting the last is deleting the item.
      if (translations.length === 1) throw new AppError('conflict', { info: M.lastLanguage });
      if (!(await this.canPublish(tx, acting.actor))) await this.checkAllDrafts(tx, id, lang);
      await tx.delete(contentTranslations).where(eq(contentTranslations.id, own.id));
      await this.audit(tx, acting, 'content.translation_deleted', id, { kind: item.kind, lang });
    });
  }
}
