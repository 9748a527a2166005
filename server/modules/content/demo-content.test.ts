import { readFile } from 'node:fs/promises';
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SLUG_PATTERN } from '#shared/content/content-values.ts';
import { renderMarkdown } from '#shared/content/markdown.ts';
import { LANGS } from '#shared/locales.ts';
import {
  contentCategories,
  contentItems,
  contentTranslations,
  mainPageFaqs,
} from '../../db/schema/index.ts';
import { createTestApp } from '../../test/test-app.ts';
import {
  DEMO_ARTICLES,
  DEMO_BLOG_CATEGORIES,
  DEMO_FAQ,
  DEMO_HELP_CATEGORIES,
  DEMO_PAGES,
  DEMO_POSTS,
} from './demo/manifest.ts';
import { parseDemoFile, seedDemoContent, splitQuestions } from './demo-content.ts';

// The demo content (issue 22 "Demo content"): every item of the manifest in every language,
// with front matter an editor would accept, and a seed that writes it all once.

const FILES = [
  ...DEMO_PAGES.map((key) => `pages/${key}`),
  ...DEMO_POSTS.map((post) => `blog/${post.key}`),
  ...DEMO_ARTICLES.map((article) => `help/${article.key}`),
  ...DEMO_FAQ.map((key) => `faq/${key}`),
];
const CATEGORY_KEYS = [
  ...DEMO_BLOG_CATEGORIES,
  ...DEMO_HELP_CATEGORIES.flatMap((c) => [c.key, ...c.children]),
];
const read = (path: string) => readFile(new URL(`./demo/${path}`, import.meta.url), 'utf8');

describe.each(LANGS)('the demo content in %s', (lang) => {
  it('has every item with a title, a valid slug unique in its section, and a description', async () => {
    const slugs = new Map<string, Set<string>>();
    for (const path of FILES) {
      const file = parseDemoFile(await read(`${lang}/${path}.md`));
      const section = path.split('/')[0] ?? '';
      expect(file.title, path).not.toBe('');
      expect(file.slug, path).toMatch(SLUG_PATTERN);
      expect(slugs.get(section)?.has(file.slug), `${path} slug ${file.slug} twice`).not.toBe(true);
      slugs.set(section, (slugs.get(section) ?? new Set()).add(file.slug));
      expect(file.description.length, `${path} description`).toBeGreaterThanOrEqual(100);
      expect(file.description.length, `${path} description`).toBeLessThanOrEqual(170);
      // The title is the page's heading: a body has none of its own (a `#` in code is fine).
      expect(renderMarkdown(file.body, lang).html, path).not.toContain('<h1');
      if (section === 'blog') expect(file.tags.length, path).toBeGreaterThan(0);
    }
  });

  it('has the questions of each FAQ and a name and slug for every category', async () => {
    const faq = parseDemoFile(await read(`${lang}/faq/general.md`));
    expect(splitQuestions(faq.body).questions).toHaveLength(10);
    const billing = parseDemoFile(await read(`${lang}/faq/billing.md`));
    expect(splitQuestions(billing.body).questions).toHaveLength(9);
    const categories = JSON.parse(await read(`${lang}/categories.json`));
    for (const key of CATEGORY_KEYS) {
      expect(categories[key]?.name, key).toBeTruthy();
      expect(categories[key]?.slug, key).toMatch(SLUG_PATTERN);
    }
  });
});

describe('seeding the demo content', () => {
  it('writes every item in every language once, published, with rendered links', async () => {
    const { app } = await createTestApp();
    expect(await seedDemoContent(app.db)).toBe(true);
    expect(await seedDemoContent(app.db)).toBe(false);
    const [items] = await app.db.select({ n: count() }).from(contentItems);
    expect(items?.n).toBe(FILES.length);
    const [translations] = await app.db.select({ n: count() }).from(contentTranslations);
    expect(translations?.n).toBe(FILES.length * LANGS.length);
    const [categories] = await app.db.select({ n: count() }).from(contentCategories);
    expect(categories?.n).toBe(CATEGORY_KEYS.length);
    const stored = await app.db
      .select({ html: contentTranslations.bodyHtml, md: contentTranslations.bodyMd })
      .from(contentTranslations)
      .where(eq(contentTranslations.state, 'published'));
    // The Markdown staff edit has the same public links as its HTML (a save renders it).
    expect(stored.map((row) => row.html + row.md).join('')).not.toContain('content:');
    expect(stored.some((row) => row.md.includes('](/en/help-center/article/'))).toBe(true);
    // Pricing shows the billing FAQ; the home and the help center the general one.
    const placed = await app.db
      .select({ page: mainPageFaqs.page, slug: contentTranslations.slug })
      .from(mainPageFaqs)
      .innerJoin(
        contentTranslations,
        and(
          eq(contentTranslations.itemId, mainPageFaqs.faqItemId),
          eq(contentTranslations.lang, 'en'),
        ),
      );
    const slugOf = async (key: string) => parseDemoFile(await read(`en/faq/${key}.md`)).slug;
    expect(Object.fromEntries(placed.map((row) => [row.page, row.slug]))).toEqual({
      pricing: await slugOf('billing'),
      home: await slugOf('general'),
      help_center: await slugOf('general'),
    });
  });
});
