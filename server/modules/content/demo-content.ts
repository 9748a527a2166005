import { readFile } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { count, eq } from 'drizzle-orm';
import type { ContentKind } from '#shared/content/content-values.ts';
import { renderMarkdown } from '#shared/content/markdown.ts';
import { contentPath } from '#shared/content/public-paths.ts';
import { slugify } from '#shared/content/slugify.ts';
import { LANGS, type Lang } from '#shared/locales.ts';
import type { Database } from '../../db/client.ts';
import {
  contentCategories,
  contentCategoryTranslations,
  contentItems,
  contentRevisions,
  contentTags,
  contentTranslations,
  contentTranslationTags,
  type FaqQuestion,
  mainPageFaqs,
  users,
} from '../../db/schema/index.ts';
import {
  DEMO_ARTICLES,
  DEMO_BLOG_CATEGORIES,
  DEMO_FAQ,
  DEMO_HELP_CATEGORIES,
  DEMO_MAIN_PAGE_FAQS,
  DEMO_PAGES,
  DEMO_POSTS,
} from './demo/manifest.ts';

// Demo content for `npm start` (issue 22): the footer's pages, blog posts in three
// categories, help-center articles in four categories with sub-categories and FAQ pages
// (shown on the home, pricing and help-center pages), in every language, from the Markdown
// files under demo/ (manifest.ts). Written once, into a database without content, with bulk
// inserts; nothing of it runs outside SEED_DEMO.

const DEMO_DIR = new URL('./demo/', import.meta.url);
const DAY_MS = 86_400_000;

/** A demo file: its front matter and its Markdown. */
export interface DemoFile {
  title: string;
  slug: string;
  description: string;
  keyphrase: string;
  tags: string[];
  body: string;
}

/** The `key: value` lines between `---` fences, then the body. */
export function parseDemoFile(text: string): DemoFile {
  const match = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text.replace(/\r\n/g, '\n'));
  if (!match) throw new Error('demo file without front matter');
  const fields = new Map<string, string>();
  for (const line of (match[1] ?? '').split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) fields.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return {
    title: fields.get('title') ?? '',
    slug: fields.get('slug') ?? '',
    description: fields.get('description') ?? '',
    keyphrase: fields.get('keyphrase') ?? '',
    tags: (fields.get('tags') ?? '')
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean),
    body: (match[2] ?? '').trim(),
  };
}

/** An FAQ file's body: its introduction and its `## Question` sections. */
export function splitQuestions(body: string): {
  intro: string;
  questions: { question: string; answer: string }[];
} {
  const [intro = '', ...sections] = body.split(/^## /m);
  return {
    intro: intro.trim(),
    questions: sections.map((section) => {
      const newline = section.indexOf('\n');
      return {
        question: (newline < 0 ? section : section.slice(0, newline)).trim(),
        answer: newline < 0 ? '' : section.slice(newline + 1).trim(),
      };
    }),
  };
}

type Folder = 'pages' | 'blog' | 'help' | 'faq';
const FOLDER_KIND: Record<Folder, ContentKind> = {
  pages: 'static_page',
  blog: 'post',
  help: 'article',
  faq: 'faq',
};
/** `content:<kind>/<key>` links name these kinds. */
const LINK_FOLDER: Record<string, Folder> = {
  page: 'pages',
  post: 'blog',
  article: 'help',
  faq: 'faq',
};

async function readDemo(lang: Lang, folder: Folder, key: string): Promise<DemoFile | undefined> {
  try {
    return parseDemoFile(await readFile(new URL(`${lang}/${folder}/${key}.md`, DEMO_DIR), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

type CategoryTexts = Record<string, { name: string; slug: string; description: string }>;

async function readCategories(lang: Lang): Promise<CategoryTexts> {
  try {
    return JSON.parse(await readFile(new URL(`${lang}/categories.json`, DEMO_DIR), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
}

/** Every demo file, by folder, key and language. */
async function readAll() {
  const entries: [Folder, readonly string[]][] = [
    ['pages', DEMO_PAGES],
    ['blog', DEMO_POSTS.map((p) => p.key)],
    ['help', DEMO_ARTICLES.map((a) => a.key)],
    ['faq', DEMO_FAQ],
  ];
  const files = new Map<string, DemoFile>();
  for (const [folder, keys] of entries) {
    for (const key of keys) {
      for (const lang of LANGS) {
        const file = await readDemo(lang, folder, key);
        if (file) files.set(`${folder}/${key}/${lang}`, file);
      }
    }
  }
  return files;
}

export async function seedDemoContent(db: Database): Promise<boolean> {
  const [existing] = await db.select({ n: count() }).from(contentItems);
  if ((existing?.n ?? 0) > 0) return false;
  const files = await readAll();
  const categoryTexts = new Map<Lang, CategoryTexts>();
  for (const lang of LANGS) categoryTexts.set(lang, await readCategories(lang));
  const [author] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, 'author@example.com'));
  const [admin] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, 'admin@example.com'));
  const now = Date.now();

  /** The public address a `content:` link names, in the language of the text it is in. */
  const rewrite = (lang: Lang) => (href: string) => {
    const link = /^content:(\w+)\/([\w-]+)$/.exec(href);
    if (!link) return href;
    const folder = LINK_FOLDER[link[1] ?? ''];
    const file =
      folder && (files.get(`${folder}/${link[2]}/${lang}`) ?? files.get(`${folder}/${link[2]}/en`));
    return folder && file ? contentPath(FOLDER_KIND[folder], lang, file.slug) : `/${lang}`;
  };

  return db.transaction(async (tx) => {
    const categoryIds = new Map<string, number>();
    const addCategory = async (
      kind: 'blog' | 'help',
      key: string,
      position: number,
      parentId: number | null,
    ) => {
      const [row] = await tx
        .insert(contentCategories)
        .values({ kind, parentId, position })
        .returning({ id: contentCategories.id });
      if (!row) throw new Error('category not inserted');
      categoryIds.set(key, row.id);
      const texts = LANGS.flatMap((lang) => {
        const text = categoryTexts.get(lang)?.[key];
        return text
          ? [
              {
                categoryId: row.id,
                kind,
                lang,
                name: text.name,
                slug: text.slug,
                description: text.description,
              },
            ]
          : [];
      });
      if (texts.length > 0) await tx.insert(contentCategoryTranslations).values(texts);
      return row.id;
    };
    for (const [index, key] of DEMO_BLOG_CATEGORIES.entries())
      await addCategory('blog', key, index + 1, null);
    for (const [index, top] of DEMO_HELP_CATEGORIES.entries()) {
      const parent = await addCategory('help', top.key, index + 1, null);
      for (const [childIndex, child] of top.children.entries()) {
        await addCategory('help', child, childIndex + 1, parent);
      }
    }

    /** An item of the demo and its translations, rendered, to insert in bulk below. */
    const planned: {
      /** `<folder>/<key>`: which demo file the item is, to find its id once inserted. */
      ref: string;
      item: typeof contentItems.$inferInsert;
      translations: (typeof contentTranslations.$inferInsert & {
        tags: string[];
        questionsMd: { question: string; answerMd: string }[];
      })[];
    }[] = [];
    const addItem = async (
      folder: Folder,
      key: string,
      item: {
        categoryId?: number | null;
        position: number;
        authorId: number | null;
        publishedAt: Date;
      },
    ) => {
      const kind = FOLDER_KIND[folder];
      // Rendering is the seed's work: requests that arrive meanwhile go between two items.
      await nextTurn();
      const translations = LANGS.flatMap((lang) => {
        const file = files.get(`${folder}/${key}/${lang}`);
        if (!file) return [];
        // The stored Markdown holds the public addresses, so that staff's next save (which
        // renders what is stored) keeps the links.
        const source = file.body.replace(
          /\]\((content:\w+\/[\w-]+)\)/g,
          (_, href: string) => `](${rewrite(lang)(href)})`,
        );
        const { intro, questions } =
          kind === 'faq' ? splitQuestions(source) : { intro: source, questions: [] };
        const options = { rewriteHref: rewrite(lang) };
        const body = renderMarkdown(intro, lang, options);
        const rendered: FaqQuestion[] = questions.map((q) => ({
          question: q.question,
          answerMd: q.answer,
          answerHtml: renderMarkdown(q.answer, lang, options).html,
        }));
        return [
          {
            itemId: 0,
            space: kind === 'static_page' ? 'page' : kind,
            lang,
            title: file.title,
            slug: file.slug,
            summary: file.description,
            bodyMd: intro,
            bodyHtml: body.html,
            toc: body.toc,
            words: body.words,
            readingMinutes: body.readingMinutes,
            questions: rendered,
            seoDescription: file.description,
            focusKeyphrase: file.keyphrase,
            state: 'published',
            publishedAt: item.publishedAt,
            authorId: item.authorId,
            updatedById: item.authorId,
            createdAt: item.publishedAt,
            updatedAt: item.publishedAt,
            tags: kind === 'post' ? file.tags : [],
            questionsMd: questions.map((q) => ({ question: q.question, answerMd: q.answer })),
          },
        ];
      });
      planned.push({
        ref: `${folder}/${key}`,
        item: {
          kind,
          key: kind === 'static_page' ? key : null,
          categoryId: item.categoryId ?? null,
          position: item.position,
          authorId: item.authorId,
          createdAt: item.publishedAt,
          updatedAt: item.publishedAt,
        },
        translations,
      });
    };

    const earlier = (days: number) => new Date(now - days * DAY_MS);
    for (const [index, key] of DEMO_PAGES.entries()) {
      await addItem('pages', key, {
        position: index + 1,
        authorId: admin?.id ?? null,
        publishedAt: earlier(90),
      });
    }
    for (const [index, post] of DEMO_POSTS.entries()) {
      await addItem('blog', post.key, {
        categoryId: categoryIds.get(post.category) ?? null,
        position: index + 1,
        authorId: author?.id ?? null,
        // A post every nine days or so, the newest last week.
        publishedAt: earlier(7 + (DEMO_POSTS.length - 1 - index) * 9),
      });
    }
    for (const [index, article] of DEMO_ARTICLES.entries()) {
      await addItem('help', article.key, {
        categoryId: categoryIds.get(article.category) ?? null,
        position: index + 1,
        authorId: author?.id ?? null,
        publishedAt: earlier(60),
      });
    }
    for (const [index, key] of DEMO_FAQ.entries()) {
      await addItem('faq', key, {
        position: index + 1,
        authorId: admin?.id ?? null,
        publishedAt: earlier(60),
      });
    }

    const items = await tx
      .insert(contentItems)
      .values(planned.map((p) => p.item))
      .returning({ id: contentItems.id });
    // The main pages' FAQs, by the ids the FAQ items just got (rows come back in order).
    const itemIds = new Map(planned.map((p, index) => [p.ref, items[index]?.id]));
    const placements = DEMO_MAIN_PAGE_FAQS.flatMap(({ page, faq }) => {
      const faqItemId = itemIds.get(`faq/${faq}`);
      return faqItemId === undefined ? [] : [{ page, faqItemId }];
    });
    if (placements.length > 0) await tx.insert(mainPageFaqs).values(placements);
    const rows = planned.flatMap((p, index) =>
      p.translations.map((t) => ({ ...t, itemId: items[index]?.id ?? 0 })),
    );
    const inserted = await tx
      .insert(contentTranslations)
      .values(rows.map(({ tags: _tags, questionsMd: _questions, ...row }) => row))
      .returning({ id: contentTranslations.id });
    const tags = [
      ...new Map(
        rows.flatMap((row) =>
          row.tags.map(
            (name) =>
              [
                `${row.lang}:${slugify(name)}`,
                { lang: row.lang, name, slug: slugify(name) },
              ] as const,
          ),
        ),
      ).values(),
    ];
    const tagIds = new Map(
      (tags.length === 0
        ? []
        : await tx
            .insert(contentTags)
            .values(tags)
            .returning({ id: contentTags.id, lang: contentTags.lang, slug: contentTags.slug })
      ).map((tag) => [`${tag.lang}:${tag.slug}`, tag.id]),
    );
    const links = rows.flatMap((row, index) =>
      [...new Set(row.tags.map((name) => tagIds.get(`${row.lang}:${slugify(name)}`)))].flatMap(
        (tagId) =>
          tagId === undefined ? [] : [{ translationId: inserted[index]?.id ?? 0, tagId }],
      ),
    );
    if (links.length > 0) await tx.insert(contentTranslationTags).values(links);
    await tx.insert(contentRevisions).values(
      rows.map((row, index) => ({
        translationId: inserted[index]?.id ?? 0,
        authorId: row.authorId ?? null,
        changed: ['name', 'url', 'contents'],
        snapshot: {
          title: row.title,
          slug: row.slug,
          summary: row.summary ?? '',
          bodyMd: row.bodyMd ?? '',
          questions: row.questionsMd,
          seoTitle: '',
          seoDescription: row.seoDescription ?? '',
          focusKeyphrase: row.focusKeyphrase ?? '',
          canonicalUrl: '',
          ogImageId: null,
          state: 'published',
          publishAt: null,
          unpublishAt: null,
          tags: [...row.tags].sort(),
        },
        createdAt: row.createdAt,
      })),
    );
    return true;
  });
}
