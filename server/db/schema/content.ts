import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { TocEntry } from '#shared/content/markdown.ts';
import type { Lang } from '#shared/locales.ts';
import { users } from './users.ts';

// The content staff write (issue 22): pages, static pages, blog posts, help-center articles
// and FAQs. An item is one thing in every language; each language is a translation of it
// with its own title, slug, body, SEO fields and state. Bodies are Markdown, stored with the
// sanitized HTML rendered from them on save, so serving a page reads and renders nothing.

const timestamps = {
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

/** An uploaded image, re-encoded on upload (like avatars) with its size kept. */
export const contentMedia = pgTable(
  'content_media',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    storageKey: text().notNull(),
    width: integer().notNull(),
    height: integer().notNull(),
    bytes: integer().notNull(),
    /** The default alternative text, offered when the image is put into a body. */
    alt: text().notNull(),
    originalName: text().notNull().default(''),
    /** Widths of the narrower copies stored beside it (media-variants.ts). */
    variants: integer().array().notNull().default(sql`'{}'::integer[]`),
    uploadedById: integer().references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (table) => [uniqueIndex('content_media_storage_key_key').on(table.storageKey)],
);

/** A category of the blog (flat) or of the help center (sub-categories have a parent). */
export const contentCategories = pgTable(
  'content_categories',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    /** blog, help. */
    kind: text().notNull(),
    parentId: integer().references((): AnyPgColumn => contentCategories.id, {
      onDelete: 'restrict',
    }),
    /** Manual order among its siblings. */
    position: integer().notNull().default(0),
    ...timestamps,
  },
  (table) => [index('content_categories_kind_parent_idx').on(table.kind, table.parentId)],
);

/** A category's name, slug and SEO fields in one language. */
export const contentCategoryTranslations = pgTable(
  'content_category_translations',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    categoryId: integer()
      .notNull()
      .references(() => contentCategories.id, { onDelete: 'cascade' }),
    /** The category's kind again: slugs are unique per kind and language. */
    kind: text().notNull(),
    lang: text().notNull(),
    name: text().notNull(),
    slug: text().notNull(),
    description: text().notNull().default(''),
    seoTitle: text().notNull().default(''),
    seoDescription: text().notNull().default(''),
    focusKeyphrase: text().notNull().default(''),
    ogImageId: integer().references(() => contentMedia.id, { onDelete: 'set null' }),
    canonicalUrl: text().notNull().default(''),
    /** Bumped by every save: a save based on an older version is refused, not lost. */
    version: integer().notNull().default(1),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('content_category_translations_category_lang_key').on(table.categoryId, table.lang),
    uniqueIndex('content_category_translations_slug_key').on(table.kind, table.lang, table.slug),
  ],
);

/** One piece of content, whatever its languages. */
export const contentItems = pgTable(
  'content_items',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    /** page, static_page, post, article, faq (shared/content/content-values.ts). */
    kind: text().notNull(),
    /** A static page's fixed name (terms-of-service …), the one the site links by. */
    key: text(),
    categoryId: integer().references(() => contentCategories.id, { onDelete: 'set null' }),
    /** Manual order among the items of its category (help-center articles). */
    position: integer().notNull().default(0),
    /** The picture a post shows above its text and in lists. */
    coverImageId: integer().references(() => contentMedia.id, { onDelete: 'set null' }),
    authorId: integer().references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('content_items_kind_key_key').on(table.kind, table.key),
    index('content_items_kind_idx').on(table.kind, table.updatedAt),
    index('content_items_category_idx').on(table.categoryId, table.position),
  ],
);

/** A question of an FAQ, with its answer rendered like any body. */
export interface FaqQuestion {
  question: string;
  answerMd: string;
  answerHtml: string;
}

/** PostgreSQL's text-search document (drizzle has no column type of it). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * The text-search configuration of each language: its parser's words stemmed and its stop
 * words dropped (all five ship with PostgreSQL and PGlite). A language added to LOCALES does
 * not compile until it has one here.
 */
export const SEARCH_CONFIGS = {
  en: 'english',
  es: 'spanish',
  fr: 'french',
  nl: 'dutch',
  ru: 'russian',
} as const satisfies Record<Lang, string>;

/**
 * A tag of a stored body, quoted attribute values included (an alt text may hold `>`); the
 * renderer escapes every `<` of the text itself, so what is left is the text, with its
 * character references (which the text-search parser reads as single tokens).
 */
export const HTML_TAG_PATTERN = `<(?:[^>"']|"[^"]*"|'[^']*')*>`;

const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;
/** The row's configuration as a constant per language, so a generated column may use it. */
const ROW_CONFIG = `CASE "lang" ${Object.entries(SEARCH_CONFIGS)
  .map(([lang, config]) => `WHEN ${quoted(lang)} THEN ${quoted(config)}::regconfig`)
  .join(' ')} END`;
const ROW_BODY_TEXT = `regexp_replace("body_html", ${quoted(HTML_TAG_PATTERN)}, ' ', 'g')`;

/** An item in one language: its own text, address, SEO fields and state. */
export const contentTranslations = pgTable(
  'content_translations',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    itemId: integer()
      .notNull()
      .references(() => contentItems.id, { onDelete: 'cascade' }),
    /** The slug space (page, post, article, faq): slugs are unique in it per language. */
    space: text().notNull(),
    lang: text().notNull(),
    title: text().notNull(),
    slug: text().notNull(),
    /** A line or two for lists and cards. */
    summary: text().notNull().default(''),
    bodyMd: text().notNull().default(''),
    bodyHtml: text().notNull().default(''),
    toc: jsonb().$type<TocEntry[]>().notNull().default([]),
    words: integer().notNull().default(0),
    readingMinutes: integer().notNull().default(0),
    questions: jsonb().$type<FaqQuestion[]>().notNull().default([]),
    seoTitle: text().notNull().default(''),
    seoDescription: text().notNull().default(''),
    focusKeyphrase: text().notNull().default(''),
    ogImageId: integer().references(() => contentMedia.id, { onDelete: 'set null' }),
    canonicalUrl: text().notNull().default(''),
    /** draft, scheduled, published, unpublished. */
    state: text().notNull().default('draft'),
    publishAt: timestamp({ withTimezone: true }),
    unpublishAt: timestamp({ withTimezone: true }),
    /** When it first went public: the date a post shows. */
    publishedAt: timestamp({ withTimezone: true }),
    authorId: integer().references(() => users.id, { onDelete: 'set null' }),
    updatedById: integer().references(() => users.id, { onDelete: 'set null' }),
    /** Bumped by every save: a save based on an older version is refused, not lost. */
    version: integer().notNull().default(1),
    /**
     * What the help center's search matches (issue 23), kept by the database from the title
     * (weight A), the summary (B) and the text of the rendered body (C) in the language's own
     * configuration, so every writer (a save, the demo seed, the clock) keeps it right.
     */
    searchVector: tsvector().generatedAlwaysAs(
      sql.raw(
        `setweight(to_tsvector(${ROW_CONFIG}, "title"), 'A') || ` +
          `setweight(to_tsvector(${ROW_CONFIG}, "summary"), 'B') || ` +
          `setweight(to_tsvector(${ROW_CONFIG}, ${ROW_BODY_TEXT}), 'C')`,
      ),
    ),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('content_translations_item_lang_key').on(table.itemId, table.lang),
    index('content_translations_search_idx').using('gin', table.searchVector),
    uniqueIndex('content_translations_slug_key').on(table.space, table.lang, table.slug),
    // The clock's work: what is due to go public or private.
    index('content_translations_due_idx')
      .on(table.state, table.publishAt)
      .where(sql`${table.state} = 'scheduled'`),
    index('content_translations_unpublish_idx')
      .on(table.unpublishAt)
      .where(sql`${table.unpublishAt} IS NOT NULL`),
  ],
);

/** What a translation was before a save: its fields then, who saved, which fields changed. */
export interface RevisionSnapshot {
  title: string;
  slug: string;
  summary: string;
  bodyMd: string;
  questions: { question: string; answerMd: string }[];
  seoTitle: string;
  seoDescription: string;
  focusKeyphrase: string;
  canonicalUrl: string;
  ogImageId: number | null;
  state: string;
  publishAt: string | null;
  unpublishAt: string | null;
  tags: string[];
}

export const contentRevisions = pgTable(
  'content_revisions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    translationId: integer()
      .notNull()
      .references(() => contentTranslations.id, { onDelete: 'cascade' }),
    authorId: integer().references(() => users.id, { onDelete: 'set null' }),
    /** The fields this save changed. */
    changed: text().array().notNull().default(sql`'{}'::text[]`),
    /** The translation as this save left it. */
    snapshot: jsonb().$type<RevisionSnapshot>().notNull(),
    /** Saved by the editor on its own: later autosaves fold into it, a person's save never. */
    autosave: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('content_revisions_translation_idx').on(table.translationId, table.id)],
);

/** An old slug of a published translation, answered with a redirect to its current one. */
export const contentRedirects = pgTable(
  'content_redirects',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    space: text().notNull(),
    lang: text().notNull(),
    fromSlug: text().notNull(),
    translationId: integer()
      .notNull()
      .references(() => contentTranslations.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('content_redirects_from_key').on(table.space, table.lang, table.fromSlug),
    index('content_redirects_translation_idx').on(table.translationId),
  ],
);

/** A blog tag in one language. */
export const contentTags = pgTable(
  'content_tags',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    lang: text().notNull(),
    name: text().notNull(),
    slug: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('content_tags_lang_slug_key').on(table.lang, table.slug)],
);

export const contentTranslationTags = pgTable(
  'content_translation_tags',
  {
    translationId: integer()
      .notNull()
      .references(() => contentTranslations.id, { onDelete: 'cascade' }),
    tagId: integer()
      .notNull()
      .references(() => contentTags.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.translationId, table.tagId] }),
    index('content_translation_tags_tag_idx').on(table.tagId),
  ],
);

/** Where an image is used: kept from each save's rendered body, cover and SEO image. */
export const contentMediaUses = pgTable(
  'content_media_uses',
  {
    mediaId: integer()
      .notNull()
      .references(() => contentMedia.id, { onDelete: 'cascade' }),
    translationId: integer()
      .notNull()
      .references(() => contentTranslations.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.mediaId, table.translationId] }),
    index('content_media_uses_translation_idx').on(table.translationId),
  ],
);

/** A main page's SEO settings in one language (home, pricing, blog …). */
export const mainPageSeo = pgTable(
  'main_page_seo',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    page: text().notNull(),
    lang: text().notNull(),
    title: text().notNull().default(''),
    description: text().notNull().default(''),
    focusKeyphrase: text().notNull().default(''),
    ogImageId: integer().references(() => contentMedia.id, { onDelete: 'set null' }),
    canonicalUrl: text().notNull().default(''),
    updatedById: integer().references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (table) => [uniqueIndex('main_page_seo_page_lang_key').on(table.page, table.lang)],
);

/** Which FAQ a main page shows (pricing's billing questions …), in every language. */
export const mainPageFaqs = pgTable('main_page_faqs', {
  page: text().primaryKey(),
  faqItemId: integer()
    .notNull()
    .references(() => contentItems.id, { onDelete: 'cascade' }),
  updatedAt: timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

/** The content settings: one row. */
export const contentSettings = pgTable('content_settings', {
  id: integer().primaryKey().default(1),
  /** Authors may publish, schedule and unpublish; otherwise they write drafts for an admin. */
  authorsCanPublish: boolean().notNull().default(false),
  updatedById: integer().references(() => users.id, { onDelete: 'set null' }),
  ...timestamps,
});

export type ContentItemRow = typeof contentItems.$inferSelect;
export type ContentTranslationRow = typeof contentTranslations.$inferSelect;
export type ContentCategoryRow = typeof contentCategories.$inferSelect;
export type ContentCategoryTranslationRow = typeof contentCategoryTranslations.$inferSelect;
export type ContentMediaRow = typeof contentMedia.$inferSelect;
export type ContentRevisionRow = typeof contentRevisions.$inferSelect;
