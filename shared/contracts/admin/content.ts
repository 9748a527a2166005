import { z } from 'zod';
import {
  BODY_MAX_BYTES,
  CATEGORY_KINDS,
  CONTENT_DEFAULT_LANG,
  CONTENT_KINDS,
  CONTENT_STATES,
  FAQ_QUESTIONS_MAX,
  MAIN_PAGES,
  SLUG_MAX,
  SLUG_PATTERN,
} from '../../content/content-values.ts';
import { LANGS } from '../../locales.ts';
import { INT4_MAX, recordId, recordIdNumber } from '../../validation/record-id.ts';
import { requiredString } from '../../validation/required.ts';
import { FIELD_TOO_LONG } from '../../validation/zod-messages.ts';
import { endpoint } from '../endpoint.ts';
import { listResponse, pagingQuery, searchFilter, sortQuery } from '../list.ts';

// §2 /admin/blog, /admin/help-center, /admin/pages, /admin/static-pages, /admin/faq and
// /admin/seo; §7 dashboard /pages, /blog, /faq, /help-center and /{key}/analyze (issue 22).
// Staff (admin and author) write every kind of content the same way: an item in several
// languages, each a translation with the §3 Page fields (`name`, `url`, `contents`, `lang`),
// its own SEO fields and state. Authors publish only when an admin allows it.

const invalid = { error: 'input_errors.field_is_invalid' };
const isoDate = z.iso.datetime({ offset: true });

/** Message keys these calls answer with (staff's texts, admin-content.json). */
export const CONTENT_MESSAGES = {
  slugFormat: 'staff_content.errors.slug_format',
  slugTaken: 'staff_content.errors.slug_taken',
  slugReserved: 'staff_content.errors.slug_reserved',
  bodyTooLong: 'staff_content.errors.body_too_long',
  publishAtNeeded: 'staff_content.errors.publish_at_needed',
  publishAtPast: 'staff_content.errors.publish_at_past',
  unpublishBeforePublish: 'staff_content.errors.unpublish_before_publish',
  publishNotAllowed: 'staff_content.errors.publish_not_allowed',
  editPublishedNotAllowed: 'staff_content.errors.edit_published_not_allowed',
  staleVersion: 'staff_content.errors.stale_version',
  autosaveDraftOnly: 'staff_content.errors.autosave_draft_only',
  liveSettingsNotAllowed: 'staff_content.errors.live_settings_not_allowed',
  ownParent: 'staff_content.errors.own_parent',
  tooDeep: 'staff_content.errors.too_deep',
  parentHasParent: 'staff_content.errors.parent_has_parent',
  categoryNotEmpty: 'staff_content.errors.category_not_empty',
  categoryHasChildren: 'staff_content.errors.category_has_children',
  categoryKind: 'staff_content.errors.category_kind',
  lastLanguage: 'staff_content.errors.last_language',
  staticPageDelete: 'staff_content.errors.static_page_delete',
  mediaInUse: 'staff_content.errors.media_in_use',
  notAnImage: 'staff_content.errors.not_an_image',
  altRequired: 'staff_content.errors.alt_required',
  unknownMedia: 'staff_content.errors.unknown_media',
  canonicalUrl: 'staff_content.errors.canonical_url',
} as const;

export const contentLang = z.enum(LANGS, invalid);
export const contentState = z.enum(CONTENT_STATES, invalid);

/** A slug as staff type it: trimmed, then lowercase ASCII words joined by hyphens. */
export const slugField = z
  .string({ error: 'input_errors.field_is_required' })
  .trim()
  .min(1, { error: 'input_errors.field_is_required', abort: true })
  .max(SLUG_MAX, { error: FIELD_TOO_LONG, abort: true })
  .regex(SLUG_PATTERN, { error: CONTENT_MESSAGES.slugFormat });

/** A Markdown source, limited in bytes (what the database and the renderer hold). */
export const markdownField = z
  .string(invalid)
  .refine((text) => new TextEncoder().encode(text).length <= BODY_MAX_BYTES, {
    error: CONTENT_MESSAGES.bodyTooLong,
  });

const optionalText = (max: number) =>
  z.string(invalid).trim().max(max, { error: FIELD_TOO_LONG }).default('');

const canonicalUrl = z
  .string(invalid)
  .trim()
  .max(2000, { error: FIELD_TOO_LONG })
  .refine((value) => value === '' || isCanonicalUrl(value), {
    error: CONTENT_MESSAGES.canonicalUrl,
  })
  .default('');

/**
 * An absolute http(s) address as the URL parser reads it, on a named host, without a login,
 * and with none of the characters it would have to escape (quotes, `<`, `>`, spaces...):
 * it goes into a page's `<link rel="canonical">` as it was typed.
 */
function isCanonicalUrl(value: string): boolean {
  if (/[^!-~\u00a1-\u{10ffff}]|[\s"'<>\\^`{|}]/u.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.hostname.includes('.') &&
    url.username === '' &&
    url.password === ''
  );
}

/** The SEO fields every translation and main page has. */
export const seoFields = z.object({
  seo_title: optionalText(200),
  seo_description: optionalText(400),
  focus_keyphrase: optionalText(100),
  og_image_id: recordIdNumber.nullable().default(null),
  canonical_url: canonicalUrl,
});
export type SeoFields = z.output<typeof seoFields>;

export const faqQuestionInput = z.object({
  question: requiredString(300),
  answer: markdownField.pipe(z.string().trim().min(1, 'input_errors.field_is_required')),
});

/**
 * A translation as staff save it. `state` with its dates: `scheduled` needs a future
 * `publish_at`; `unpublish_at`, when set, must come after the publication.
 */
const translationShape = seoFields.extend({
  lang: contentLang,
  name: requiredString(200),
  url: slugField,
  contents: markdownField.default(''),
  summary: optionalText(500),
  state: contentState.default('draft'),
  publish_at: isoDate.nullable().default(null),
  unpublish_at: isoDate.nullable().default(null),
  /** Blog posts: tag names in this language. */
  tags: z.array(requiredString(50)).max(20, invalid).default([]),
  /** FAQs: the questions, in order. */
  questions: z.array(faqQuestionInput).max(FAQ_QUESTIONS_MAX, invalid).default([]),
});

/** The item's own fields, shared by its languages. */
const itemShape = z.object({
  category_id: recordIdNumber.nullable().optional(),
  cover_image_id: recordIdNumber.nullable().optional(),
});

function checkDates(
  value: { state: string; publish_at: string | null; unpublish_at: string | null },
  context: z.RefinementCtx,
) {
  if (value.state === 'scheduled' && !value.publish_at) {
    context.addIssue({
      code: 'custom',
      path: ['publish_at'],
      message: CONTENT_MESSAGES.publishAtNeeded,
    });
  }
  if (
    value.unpublish_at &&
    value.publish_at &&
    Date.parse(value.unpublish_at) <= Date.parse(value.publish_at)
  ) {
    context.addIssue({
      code: 'custom',
      path: ['unpublish_at'],
      message: CONTENT_MESSAGES.unpublishBeforePublish,
    });
  }
}

/** §7 `/pages/create {name,url,contents}`: a text without a language is the default one's. */
export const contentCreateRequest = translationShape
  .extend({ lang: contentLang.default(CONTENT_DEFAULT_LANG) })
  .merge(itemShape)
  .superRefine(checkDates);
export type ContentCreateRequest = z.output<typeof contentCreateRequest>;

/**
 * A translation saved again (or added: a language the item lacks is created). `version` is
 * the version the editor started from: a save over someone else's newer one is refused.
 * `autosave` marks the editor's own saves of a draft, which fold into the last revision.
 */
export const contentUpdateRequest = translationShape
  .merge(itemShape)
  .extend({
    id: recordIdNumber,
    version: z.number(invalid).int(invalid).min(0, invalid).optional(),
    autosave: z.boolean(invalid).default(false),
  })
  .superRefine(checkDates);
export type ContentUpdateRequest = z.output<typeof contentUpdateRequest>;

/**
 * An item named by `id`, or by §7's `page_id` (`/pages/delete {page_id}`), which every kind
 * takes alike; `id` wins when both are sent.
 */
const itemIds = { id: recordIdNumber.optional(), page_id: recordIdNumber.optional() };
function chooseId<T extends { id?: number; page_id?: number }>(
  { id, page_id, ...rest }: T,
  ctx: z.RefinementCtx,
): Omit<T, 'id' | 'page_id'> & { id: number } {
  const chosen = id ?? page_id;
  if (chosen !== undefined) return { ...rest, id: chosen };
  ctx.addIssue({ code: 'custom', path: ['id'], message: 'input_errors.field_is_required' });
  return z.NEVER;
}
export const contentIdInput = z.object(itemIds).transform(chooseId);
export const contentLangInput = z.object({ ...itemIds, lang: contentLang }).transform(chooseId);

/** A person as content names them. */
export const contentPerson = z.object({ user_id: z.number().int(), name: z.string() });

/** A translation in lists: enough to show its language, state and address. */
export const translationSummary = z.object({
  lang: contentLang,
  name: z.string(),
  url: z.string(),
  state: contentState,
  publish_at: isoDate.nullable(),
  unpublish_at: isoDate.nullable(),
  published_at: isoDate.nullable(),
  updated_at: isoDate,
  /** What search results show (the SEO screens' lists judge them). */
  seo_title: z.string(),
  seo_description: z.string(),
});
export type TranslationSummary = z.infer<typeof translationSummary>;

export const contentKind = z.enum(CONTENT_KINDS);

/** An item in staff's lists. */
export const contentListItem = z
  .object({
    id: z.number().int(),
    kind: contentKind,
    key: z.string().nullable(),
    category: z.object({ category_id: z.number().int(), name: z.string() }).nullable(),
    position: z.number().int(),
    author: contentPerson.nullable(),
    updated_at: isoDate,
    translations: z.array(translationSummary),
  })
  .meta({ id: 'ContentListItem' });
export type ContentListItem = z.infer<typeof contentListItem>;

export const faqQuestion = z.object({ question: z.string(), answer: z.string() });

/** A translation whole, as the editor holds it. */
export const contentTranslation = translationSummary
  .extend({
    contents: z.string(),
    contents_html: z.string(),
    summary: z.string(),
    seo_title: z.string(),
    seo_description: z.string(),
    focus_keyphrase: z.string(),
    og_image_id: z.number().int().nullable(),
    canonical_url: z.string(),
    tags: z.array(z.string()),
    /** Earlier published slugs of this translation that now redirect to it. */
    redirected_from: z.array(z.string()),
    questions: z.array(faqQuestion),
    toc: z.array(
      z.object({ depth: z.union([z.literal(2), z.literal(3)]), id: z.string(), text: z.string() }),
    ),
    words: z.number().int(),
    reading_minutes: z.number().int(),
    author: contentPerson.nullable(),
    updated_by: contentPerson.nullable(),
    version: z.number().int(),
    created_at: isoDate,
  })
  .meta({ id: 'ContentTranslation' });
export type ContentTranslation = z.infer<typeof contentTranslation>;

export const contentItem = contentListItem
  .extend({
    category_id: z.number().int().nullable(),
    cover_image_id: z.number().int().nullable(),
    translations: z.array(contentTranslation),
    /** Whether this staff member may publish, schedule and unpublish. */
    can_publish: z.boolean(),
  })
  .meta({ id: 'ContentItem' });
export type ContentItem = z.infer<typeof contentItem>;

export const contentItemResponse = z.object({ item: contentItem });
export const contentUpdateResponse = z.object({ success: z.literal(true), item: contentItem });
export const successResponse = z.object({ success: z.literal(true) });

export const CONTENT_SORTS = ['updated_at', 'created_at', 'name', 'position'] as const;

export const contentListQuery = pagingQuery.merge(sortQuery(CONTENT_SORTS, 'updated_at')).extend({
  search: searchFilter,
  /** Items that have this language (with the state filter: in this state in it). */
  lang: contentLang.optional(),
  state: contentState.optional(),
  category_id: recordId.optional(),
  author_id: recordId.optional(),
  tag: z.string().trim().max(50).optional(),
});
export type ContentListQuery = z.output<typeof contentListQuery>;

/** §2 pages overview and static pages overview list one of the two page kinds. */
export const pagesListQuery = contentListQuery.extend({
  type: z.enum(['page', 'static_page'], invalid).default('page'),
});

/** One revision: who saved, when, which fields changed. */
export const contentRevision = z
  .object({
    revision_id: z.number().int(),
    lang: contentLang,
    author: contentPerson.nullable(),
    created_at: isoDate,
    changed: z.array(z.string()),
  })
  .meta({ id: 'ContentRevision' });

export const contentRevisionDetail = contentRevision
  .extend({
    name: z.string(),
    url: z.string(),
    summary: z.string(),
    contents: z.string(),
    questions: z.array(faqQuestion),
    seo_title: z.string(),
    seo_description: z.string(),
    focus_keyphrase: z.string(),
    state: contentState,
    tags: z.array(z.string()),
  })
  .meta({ id: 'ContentRevisionDetail' });
export type ContentRevisionDetail = z.infer<typeof contentRevisionDetail>;

// Categories --------------------------------------------------------------------------

export const categoryTranslationInput = seoFields.extend({
  lang: contentLang,
  name: requiredString(120),
  url: slugField,
  description: optionalText(500),
});

export const categoryCreateRequest = categoryTranslationInput.extend({
  /** Help center: the category this one is a sub-category of. */
  parent_category_id: recordIdNumber.nullable().default(null),
});
/**
 * On update the parent is changed only when given: a translation's save leaves it be.
 * `version` is the translation's version the dialog showed: a save over a newer one is
 * refused (409), not lost.
 */
export const categoryUpdateRequest = categoryCreateRequest.extend({
  category_id: recordIdNumber,
  parent_category_id: recordIdNumber.nullable().optional(),
  version: z.number(invalid).int(invalid).min(0, invalid).optional(),
});
export type CategoryUpdateRequest = z.output<typeof categoryUpdateRequest>;
export const categoryIdInput = z.object({ category_id: recordIdNumber });
export const categoryLangInput = z.object({ category_id: recordIdNumber, lang: contentLang });

export const categoryTranslation = z.object({
  lang: contentLang,
  name: z.string(),
  url: z.string(),
  description: z.string(),
  seo_title: z.string(),
  seo_description: z.string(),
  focus_keyphrase: z.string(),
  og_image_id: z.number().int().nullable(),
  canonical_url: z.string(),
  /** Bumped by every save of this language (the version check of the saves below). */
  version: z.number().int(),
});

export const contentCategory = z
  .object({
    category_id: z.number().int(),
    kind: z.enum(CATEGORY_KINDS),
    parent_category_id: z.number().int().nullable(),
    position: z.number().int(),
    /** Items filed under it (a help category: its own articles, not its children's). */
    items_count: z.number().int(),
    translations: z.array(categoryTranslation),
  })
  .meta({ id: 'ContentCategory' });
export type ContentCategory = z.infer<typeof contentCategory>;

export const categoriesQuery = pagingQuery.extend({
  search: searchFilter,
  lang: contentLang.optional(),
  /** Help center: the sub-categories of one category; `0` for the top level. */
  parent_category_id: z.coerce
    .number(invalid)
    .int(invalid)
    .min(0, invalid)
    .max(INT4_MAX, invalid)
    .optional(),
});

export const categoryResponse = z.object({ category: contentCategory });

/** A new order of a category's children (or the top level): every one, once. */
export const categorySortRequest = z.object({
  parent_category_id: recordIdNumber.nullable(),
  category_ids: z.array(recordIdNumber).min(1, invalid).max(500, invalid),
});

/** A new order of the articles of one category. */
export const articleSortRequest = z.object({
  category_id: recordIdNumber,
  ids: z.array(recordIdNumber).min(1, invalid).max(1000, invalid),
});

// Tags, media, SEO, settings -----------------------------------------------------------

export const contentTag = z.object({
  tag_id: z.number().int(),
  lang: contentLang,
  name: z.string(),
  url: z.string(),
  posts_count: z.number().int(),
});
export const tagsQuery = pagingQuery.extend({ search: searchFilter, lang: contentLang.optional() });

export const contentMediaItem = z
  .object({
    media_id: z.number().int(),
    url: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    bytes: z.number().int(),
    alt: z.string(),
    original_name: z.string(),
    uses: z.number().int(),
    created_at: isoDate,
  })
  .meta({ id: 'ContentMedia' });
export type ContentMediaItem = z.infer<typeof contentMediaItem>;

export const mediaQuery = pagingQuery.extend({ search: searchFilter });
/** The upload's other fields (the image itself is the multipart file `image`). */
export const mediaUploadFields = z.object({ alt: requiredString(300) });
export const mediaUpdateRequest = z.object({ media_id: recordIdNumber, alt: requiredString(300) });
export const mediaDeleteRequest = z.object({
  media_id: recordIdNumber,
  /** Staff saw where it is used and remove it anyway. */
  in_use_confirmed: z.boolean(invalid).default(false),
});

export const mainPageKey = z.enum(MAIN_PAGES, invalid);
export const mainPageSeoRequest = seoFields
  .extend({ page: mainPageKey, lang: contentLang })
  .extend({ seo_title: optionalText(200), seo_description: optionalText(400) });
export const mainPageSeoItem = z.object({
  page: mainPageKey,
  translations: z.array(
    z.object({
      lang: contentLang,
      seo_title: z.string(),
      seo_description: z.string(),
      focus_keyphrase: z.string(),
      og_image_id: z.number().int().nullable(),
      canonical_url: z.string(),
      updated_at: isoDate.nullable(),
    }),
  ),
  faq_id: z.number().int().nullable(),
});
export type MainPageSeoItem = z.infer<typeof mainPageSeoItem>;

export const mainPageFaqRequest = z.object({
  page: mainPageKey,
  faq_id: recordIdNumber.nullable(),
});

/**
 * The SEO fields of one translation of an item, changed alone (the SEO screens). `version` is
 * the translation's version the screen showed: a save over a newer one is refused (409).
 */
export const seoItemUpdateRequest = seoFields.extend({
  id: recordIdNumber,
  lang: contentLang,
  version: z.number(invalid).int(invalid).min(0, invalid),
});
export const seoCategoryUpdateRequest = seoFields.extend({
  category_id: recordIdNumber,
  lang: contentLang,
  version: z.number(invalid).int(invalid).min(0, invalid),
});

export const contentSettings = z.object({ authors_can_publish: z.boolean() });

/** The SEO check's input: what the editor shows beside the text (shared/content/seo-analysis.ts). */
export const analyzeRequest = z.object({
  analyze: z.object({
    lang: contentLang,
    name: z.string(invalid).max(300, { error: FIELD_TOO_LONG }).default(''),
    seo_title: z.string(invalid).max(300, { error: FIELD_TOO_LONG }).default(''),
    seo_description: z.string(invalid).max(1000, { error: FIELD_TOO_LONG }).default(''),
    url: z.string(invalid).max(SLUG_MAX, { error: FIELD_TOO_LONG }).default(''),
    focus_keyphrase: z.string(invalid).max(100, { error: FIELD_TOO_LONG }).default(''),
    contents: markdownField.default(''),
  }),
});
export type AnalyzeRequest = z.output<typeof analyzeRequest>;

export const seoCheck = z.object({
  id: z.string(),
  passed: z.boolean(),
  reason: z.string(),
  values: z.record(z.string(), z.union([z.string(), z.number()])),
  weight: z.number(),
});
export const analyzeResponse = z.object({
  score: z.number().int(),
  checks: z.array(seoCheck),
  readability: z.object({
    score: z.number(),
    words: z.number().int(),
    sentences: z.number().int(),
    syllables: z.number().int(),
    band: z.string(),
  }),
});

/** The §7 `{key}` of `POST /{key}/analyze`: the content areas. */
export const ANALYZE_KEYS = ['pages', 'blog', 'help-center', 'faq', 'seo'] as const;

// Endpoints ---------------------------------------------------------------------------

const staff = { base: 'dashboard', access: { permission: 'content' } } as const;

/**
 * The five calls of one kind of item, on its §7 path: list, view, create, update, delete,
 * and delete-lang (one translation).
 */
function itemEndpoints<const P extends string, const T extends string>(
  path: P,
  tag: T,
  noun: string,
) {
  return {
    view: endpoint({
      ...staff,
      tag,
      method: 'GET',
      path: `${path}/view`,
      summary: `One ${noun} with every translation`,
      query: z.object({ id: recordId }),
      response: contentItemResponse,
    }),
    create: endpoint({
      ...staff,
      tag,
      method: 'POST',
      path: `${path}/create`,
      summary: `Create a ${noun} in one language`,
      body: contentCreateRequest,
      response: contentItemResponse,
      status: 201,
    }),
    update: endpoint({
      ...staff,
      tag,
      method: 'POST',
      path: `${path}/update`,
      summary: `Save a ${noun}'s translation (a missing language is added)`,
      body: contentUpdateRequest,
      response: contentUpdateResponse,
    }),
    delete: endpoint({
      ...staff,
      tag,
      method: 'POST',
      path: `${path}/delete`,
      summary: `Delete a ${noun} in every language`,
      body: contentIdInput,
      response: successResponse,
    }),
    deleteLang: endpoint({
      ...staff,
      tag,
      method: 'POST',
      path: `${path}/delete-lang`,
      summary: `Delete one translation of a ${noun}`,
      body: contentLangInput,
      response: successResponse,
    }),
  };
}

function categoryEndpoints<const P extends string, const T extends string>(path: P, tag: T) {
  return {
    list: endpoint({
      ...staff,
      tag,
      method: 'GET',
      path,
      summary: 'Categories in their order, with their translations',
      query: categoriesQuery,
      response: listResponse(contentCategory),
    }),
    view: endpoint({
      ...staff,
      tag,
      method: 'GET',
      path: `${path}/view`,
      summary: 'One category with every translation',
      query: z.object({ category_id: recordId }),
      response: categoryResponse,
    }),
    create: endpoint({
      ...staff,
      tag,
      method: 'POST',
      path: `${path}/create`,
      summary: 'Create a category in one language',
      body: categoryCreateRequest,
      response: categoryResponse,
      status: 201,
    }),
    update: endpoint({
      ...staff,
      tag,
      method: 'POST',
      path: `${path}/update`,
      summary: "Save a category's translation (a missing language is added)",
      body: categoryUpdateRequest,
      response: successResponse.extend({ category: contentCategory }),
    }),
    delete: endpoint({
      ...staff,
      tag,
      method: 'POST',
      path: `${path}/delete`,
      summary: 'Delete an empty category',
      body: categoryIdInput,
      response: successResponse,
    }),
    deleteLang: endpoint({
      ...staff,
      tag,
      method: 'POST',
      path: `${path}/delete-lang`,
      summary: "Delete one of a category's translations",
      body: categoryLangInput,
      response: successResponse,
    }),
  };
}

const list = <const P extends string>(path: P, tag: string, summary: string) =>
  endpoint({
    ...staff,
    tag,
    method: 'GET',
    path,
    summary,
    query: contentListQuery,
    response: listResponse(contentListItem),
  });

/** The list call of posts, articles or FAQs, as a screen calls them alike. */
export type ContentListEndpoint = ReturnType<typeof list<string>>;

/** The category calls of either tree, as a server registers them alike. */
export type CategoryEndpoints = ReturnType<typeof categoryEndpoints<string, string>>;

/** The item calls of any one area, as a server registers them alike. */
export type ContentItemEndpoints = ReturnType<typeof itemEndpoints<string, string>>;

export const pageEndpoints = {
  list: endpoint({
    ...staff,
    tag: 'pages',
    method: 'GET',
    path: '/pages',
    summary: 'Pages or static pages, with their translations',
    query: pagesListQuery,
    response: listResponse(contentListItem),
  }),
  ...itemEndpoints('/pages', 'pages', 'page'),
};

export const postEndpoints = {
  list: list('/blog/posts', 'blog', 'Blog posts with their translations'),
  ...itemEndpoints('/blog/posts', 'blog', 'blog post'),
  tags: endpoint({
    ...staff,
    tag: 'blog',
    method: 'GET',
    path: '/blog/tags',
    summary: 'Blog tags per language, with how many posts carry each',
    query: tagsQuery,
    response: listResponse(contentTag),
  }),
};
export const blogCategoryEndpoints = categoryEndpoints('/blog/categories', 'blog');

export const articleEndpoints = {
  list: list('/help-center', 'help-center', 'Help-center articles with their translations'),
  ...itemEndpoints('/help-center', 'help-center', 'help-center article'),
  sort: endpoint({
    ...staff,
    tag: 'help-center',
    method: 'POST',
    path: '/help-center/sort',
    summary: "A new order of one category's articles",
    body: articleSortRequest,
    response: successResponse,
  }),
};
export const helpCategoryEndpoints = {
  ...categoryEndpoints('/help-center/categories', 'help-center'),
  sort: endpoint({
    ...staff,
    tag: 'help-center',
    method: 'POST',
    path: '/help-center/categories/sort',
    summary: 'A new order of the categories under one parent',
    body: categorySortRequest,
    response: successResponse,
  }),
};

export const faqEndpoints = {
  list: list('/faq', 'faq', 'FAQs with their translations'),
  ...itemEndpoints('/faq', 'faq', 'FAQ'),
};

export const contentEndpoints = {
  authors: endpoint({
    ...staff,
    tag: 'content',
    method: 'GET',
    path: '/content/authors',
    summary: 'Who wrote items of a kind (the lists’ author filter), by name',
    query: z.object({ kind: contentKind }),
    response: z.object({ items: z.array(contentPerson) }),
  }),
  revisions: endpoint({
    ...staff,
    tag: 'content',
    method: 'GET',
    path: '/content/revisions',
    summary: "A translation's revisions, the newest first",
    query: pagingQuery.extend({ id: recordId, lang: contentLang }),
    response: listResponse(contentRevision),
  }),
  revision: endpoint({
    ...staff,
    tag: 'content',
    method: 'GET',
    path: '/content/revisions/view',
    summary: 'One revision whole',
    query: z.object({ revision_id: recordId }),
    response: z.object({ revision: contentRevisionDetail }),
  }),
  restore: endpoint({
    ...staff,
    tag: 'content',
    method: 'POST',
    path: '/content/revisions/restore',
    summary: 'Save a revision as the current text (its state stays as it is now)',
    body: z.object({
      revision_id: recordIdNumber,
      version: z.number(invalid).int(invalid).min(0, invalid).optional(),
    }),
    response: contentUpdateResponse,
  }),
  analyze: endpoint({
    ...staff,
    tag: 'content',
    method: 'POST',
    path: '/:key/analyze',
    summary: "SEO check of a text: a score and each check's verdict",
    params: z.object({ key: z.enum(ANALYZE_KEYS, invalid) }),
    body: analyzeRequest,
    response: analyzeResponse,
  }),
  settings: endpoint({
    ...staff,
    tag: 'content',
    method: 'GET',
    path: '/content/settings',
    summary: 'Content settings (whether authors may publish)',
    response: contentSettings,
  }),
  updateSettings: endpoint({
    base: 'dashboard',
    access: { permission: 'contentSettings' },
    tag: 'content',
    method: 'POST',
    path: '/content/settings/update',
    summary: 'Change the content settings (admin)',
    body: contentSettings,
    response: contentSettings,
  }),
};

export const seoEndpoints = {
  mainPages: endpoint({
    ...staff,
    tag: 'seo',
    method: 'GET',
    path: '/seo/main-pages',
    summary: "The main pages' SEO settings in every language, and their FAQ",
    response: z.object({ items: z.array(mainPageSeoItem) }),
  }),
  updateMainPage: endpoint({
    ...staff,
    tag: 'seo',
    method: 'POST',
    path: '/seo/main-pages/update',
    summary: "Save a main page's SEO settings in one language",
    body: mainPageSeoRequest,
    response: successResponse,
  }),
  mainPageFaq: endpoint({
    ...staff,
    tag: 'faq',
    method: 'POST',
    path: '/faq/pages/update',
    summary: 'Choose the FAQ a main page shows (none: no FAQ there)',
    body: mainPageFaqRequest,
    response: successResponse,
  }),
  updateItem: endpoint({
    ...staff,
    tag: 'seo',
    method: 'POST',
    path: '/seo/items/update',
    summary: "Save only the SEO fields of an item's translation",
    body: seoItemUpdateRequest,
    response: successResponse,
  }),
  updateCategory: endpoint({
    ...staff,
    tag: 'seo',
    method: 'POST',
    path: '/seo/categories/update',
    summary: "Save only the SEO fields of a category's translation",
    body: seoCategoryUpdateRequest,
    response: successResponse,
  }),
};
