import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MAIN_PAGES } from '#shared/content/content-values.ts';
import {
  articleEndpoints,
  blogCategoryEndpoints,
  contentEndpoints,
  faqEndpoints,
  helpCategoryEndpoints,
  CONTENT_MESSAGES as M,
  pageEndpoints,
  postEndpoints,
  seoEndpoints,
} from '#shared/contracts/admin/content.ts';
import { LANGS } from '#shared/locales.ts';
import {
  auditLog,
  contentCategoryTranslations,
  contentItems,
  contentTags,
  contentTranslations,
} from '../../db/schema/index.ts';
import { contentTestKit, seoOf } from '../../test/content-kit.ts';
import { signedInUser } from '../../test/test-sessions.ts';

// Issue 22: the staff content calls routes.test.ts leaves out, each through its real route
// and database: what it answers, what it leaves in the tables and the audit log, and the
// refusals a screen relies on. Who may call a route at all is the authorization matrix's.
const { app, api, admin, author, as, fresh, audited } = await contentTestKit();

const text = (url: string, extra: Record<string, unknown> = {}) => ({
  lang: 'en' as const,
  name: 'Staying safe on public Wi-Fi',
  url,
  contents: 'A **café** network is shared.',
  ...extra,
});

async function createPost(url = fresh('post'), extra: Record<string, unknown> = {}) {
  const answer = await api(postEndpoints.create, { ...as, body: text(url, extra) });
  expect(answer.status, answer.text).toBe(201);
  return answer.data.item;
}

async function blogCategory(name: string, url = fresh('cat')) {
  const answer = await api(blogCategoryEndpoints.create, {
    ...as,
    body: { lang: 'en', name, url },
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.data.category;
}

async function helpCategory(name: string, parent: number | null = null) {
  const answer = await api(helpCategoryEndpoints.create, {
    ...as,
    body: { lang: 'en', name, url: fresh('help'), parent_category_id: parent },
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.data.category;
}

async function createArticle(categoryId: number, name: string) {
  const answer = await api(articleEndpoints.create, {
    ...as,
    body: text(fresh('article'), { name, category_id: categoryId }),
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.data.item;
}

describe('the pages list', () => {
  it('lists free pages or static pages, never both, nor posts', async () => {
    const stem = fresh('about');
    const page = await api(pageEndpoints.create, {
      ...as,
      body: text(`${stem}-page`, { name: 'About us' }),
    });
    expect(page.status, page.text).toBe(201);
    await createPost(`${stem}-post`);
    // Static pages are the site's own: no call creates one, so it is put in as a seed would.
    const [item] = await app.db
      .insert(contentItems)
      .values({ kind: 'static_page', key: stem })
      .returning();
    await app.db.insert(contentTranslations).values({
      itemId: item?.id ?? 0,
      space: 'page',
      lang: 'en',
      title: 'Terms of service',
      slug: `${stem}-static`,
    });
    const pages = await api(pageEndpoints.list, { ...as, query: { search: stem } });
    expect(pages.status, pages.text).toBe(200);
    expect(pages.data.items).toMatchObject([
      { id: page.data.item.id, kind: 'page', translations: [{ name: 'About us' }] },
    ]);
    expect(pages.data.controls).toMatchObject({ total: 1, page: 1 });
    const statics = await api(pageEndpoints.list, {
      ...as,
      query: { search: stem, type: 'static_page' },
    });
    expect(statics.data.items).toMatchObject([{ id: item?.id, kind: 'static_page', key: stem }]);
    const post = await api(pageEndpoints.list, {
      ...as,
      query: { search: stem, type: 'post' as never },
    });
    expect(post.status).toBe(422);
    expect(post.body).toMatchObject({ errors_validation: { type: expect.any(Array) } });
  });

  it('filters by language, state, author and pages through a sorted list', async () => {
    const stem = fresh('filters');
    const draft = await api(pageEndpoints.create, {
      ...as,
      body: text(`${stem}-b`, { name: 'Bravo' }),
    });
    const live = await api(pageEndpoints.create, {
      ...as,
      body: text(`${stem}-a`, { name: 'Alpha', state: 'published' }),
    });
    await api(pageEndpoints.update, {
      ...as,
      body: { ...text(`${stem}-a-nl`, { lang: 'nl', name: 'Alfa' }), id: live.data.item.id },
    });
    const authored = await api(pageEndpoints.create, {
      cookie: author.cookie,
      body: text(`${stem}-c`, { name: 'Charlie' }),
    });
    expect(authored.status, authored.text).toBe(201);
    const ids = async (query: Record<string, unknown>) => {
      const answer = await api(pageEndpoints.list, { ...as, query: { search: stem, ...query } });
      expect(answer.status, answer.text).toBe(200);
      return answer.data.items.map((i) => i.id);
    };
    expect(await ids({ lang: 'nl' })).toEqual([live.data.item.id]);
    expect(await ids({ state: 'published' })).toEqual([live.data.item.id]);
    // State with language: in that state in that language, not in any.
    expect(await ids({ state: 'published', lang: 'nl' })).toEqual([]);
    expect(await ids({ author_id: author.user.id })).toEqual([authored.data.item.id]);
    expect(await ids({ sort: 'name', direction: 'asc' })).toEqual([
      live.data.item.id,
      draft.data.item.id,
      authored.data.item.id,
    ]);
    const second = await api(pageEndpoints.list, {
      ...as,
      query: { search: stem, sort: 'name', direction: 'asc', per_page: 2, page: 2 },
    });
    expect(second.data.items.map((i) => i.id)).toEqual([authored.data.item.id]);
    expect(second.data.controls).toEqual({ page: 2, per_page: 2, total: 3, last_page: 2 });
    const bad = await api(pageEndpoints.list, { ...as, query: { state: 'gone' as never } });
    expect(bad.status).toBe(422);
  });
});

describe('deleting blog posts', () => {
  it('removes the post in every language, audited with its names', async () => {
    const stem = fresh('gone');
    const item = await createPost(stem, { name: 'Going away' });
    await api(postEndpoints.update, {
      ...as,
      body: { ...text(`${stem}-es`, { lang: 'es', name: 'Se va' }), id: item.id },
    });
    const answer = await api(postEndpoints.delete, { ...as, body: { id: item.id } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ success: true });
    expect((await api(postEndpoints.view, { ...as, query: { id: item.id } })).status).toBe(404);
    const rows = await app.db
      .select()
      .from(contentTranslations)
      .where(eq(contentTranslations.itemId, item.id));
    expect(rows).toHaveLength(0);
    const [audit] = await audited('content', item.id, 'content.deleted');
    expect(audit?.data).toMatchObject({
      kind: 'post',
      names: expect.arrayContaining([
        { lang: 'en', name: 'Going away' },
        { lang: 'es', name: 'Se va' },
      ]),
    });
    expect(audit?.actorId).toBe(admin.user.id);
    const again = await api(postEndpoints.delete, { ...as, body: { id: item.id } });
    expect(again.status).toBe(404);
  });

  it("refuses another area's item and an author's delete of published text", async () => {
    const page = await api(pageEndpoints.create, { ...as, body: text(fresh('not-a-post')) });
    const wrong = await api(postEndpoints.delete, { ...as, body: { id: page.data.item.id } });
    expect(wrong.status).toBe(404);
    expect(
      (await api(pageEndpoints.view, { ...as, query: { id: page.data.item.id } })).status,
    ).toBe(200);
    const live = await createPost(fresh('live'), { state: 'published' });
    const taken = await api(postEndpoints.delete, {
      cookie: author.cookie,
      body: { id: live.id },
    });
    expect(taken.status).toBe(403);
    expect(taken.body).toMatchObject({ errors_info: [M.editPublishedNotAllowed] });
    expect((await api(postEndpoints.view, { ...as, query: { id: live.id } })).status).toBe(200);
    // A draft is the author's to throw away.
    const draft = await createPost();
    const own = await api(postEndpoints.delete, { cookie: author.cookie, body: { id: draft.id } });
    expect(own.status, own.text).toBe(200);
  });

  it('deletes one translation with its tags, and refuses the last one', async () => {
    const stem = fresh('langs');
    const spanishTag = `Quitar${Date.now().toString(36)}`;
    const item = await createPost(stem, { tags: ['Keep'] });
    const spanish = await api(postEndpoints.update, {
      ...as,
      body: { ...text(`${stem}-es`, { lang: 'es', tags: [spanishTag] }), id: item.id },
    });
    expect(spanish.status, spanish.text).toBe(200);
    const gone = await api(postEndpoints.deleteLang, { ...as, body: { id: item.id, lang: 'es' } });
    expect(gone.status, gone.text).toBe(200);
    expect(gone.body).toEqual({ success: true });
    const view = await api(postEndpoints.view, { ...as, query: { id: item.id } });
    expect(view.data.item.translations.map((t) => t.lang)).toEqual(['en']);
    const tags = await api(postEndpoints.tags, { ...as, query: { search: spanishTag } });
    expect(tags.data.items).toMatchObject([{ lang: 'es', name: spanishTag, posts_count: 0 }]);
    expect(await audited('content', item.id, 'content.translation_deleted')).toMatchObject([
      { data: { kind: 'post', lang: 'es' } },
    ]);
    const missing = await api(postEndpoints.deleteLang, {
      ...as,
      body: { id: item.id, lang: 'es' },
    });
    expect(missing.status).toBe(404);
    const last = await api(postEndpoints.deleteLang, { ...as, body: { id: item.id, lang: 'en' } });
    expect(last.status).toBe(409);
    expect(last.body).toMatchObject({ errors_info: [M.lastLanguage] });
    const still = await api(postEndpoints.view, { ...as, query: { id: item.id } });
    expect(still.data.item.translations.map((t) => t.lang)).toEqual(['en']);
  });
});

describe('blog tags', () => {
  it('lists each language’s tags once, by name, with how many posts carry them', async () => {
    const mark = Date.now().toString(36);
    const one = await createPost(fresh('tagged'), { tags: [`Zulu${mark}`, `Alpha${mark}`] });
    await createPost(fresh('tagged'), { tags: [`alpha${mark}`] });
    await api(postEndpoints.update, {
      ...as,
      body: { ...text(fresh('etiqueta'), { lang: 'es', tags: [`Alpha${mark}`] }), id: one.id },
    });
    const all = await api(postEndpoints.tags, { ...as, query: { search: mark } });
    expect(all.status, all.text).toBe(200);
    // "alpha" is the same tag as "Alpha" in English (one slug), another one in Spanish.
    expect(all.data.items).toMatchObject([
      { lang: 'en', name: `Alpha${mark}`, url: `alpha${mark}`, posts_count: 2 },
      { lang: 'en', name: `Zulu${mark}`, posts_count: 1 },
      { lang: 'es', name: `Alpha${mark}`, posts_count: 1 },
    ]);
    expect(all.data.controls.total).toBe(3);
    const spanish = await api(postEndpoints.tags, { ...as, query: { search: mark, lang: 'es' } });
    expect(spanish.data.items.map((t) => t.lang)).toEqual(['es']);
    const paged = await api(postEndpoints.tags, {
      ...as,
      query: { search: mark, per_page: 1, page: 2 },
    });
    expect(paged.data.items.map((t) => t.name)).toEqual([`Zulu${mark}`]);
    const rows = await app.db
      .select()
      .from(contentTags)
      .where(eq(contentTags.slug, `alpha${mark}`));
    expect(rows).toHaveLength(2);
  });
});

describe('blog categories', () => {
  it('lists categories in their order with translations, versions and items', async () => {
    const mark = fresh('Listed');
    const first = await blogCategory(`${mark} guides`);
    const second = await blogCategory(`${mark} news`);
    await createPost(fresh('filed'), { category_id: second.category_id });
    const spanish = await api(blogCategoryEndpoints.update, {
      ...as,
      body: {
        lang: 'es',
        name: `${mark} guías`,
        url: fresh('guias'),
        category_id: first.category_id,
      },
    });
    expect(spanish.status, spanish.text).toBe(200);
    // A help category of the same name is the other tree's.
    await helpCategory(`${mark} help`);
    const list = await api(blogCategoryEndpoints.list, { ...as, query: { search: mark } });
    expect(list.status, list.text).toBe(200);
    expect(list.data.items).toMatchObject([
      {
        category_id: first.category_id,
        kind: 'blog',
        parent_category_id: null,
        items_count: 0,
        translations: [
          { lang: 'en', name: `${mark} guides`, version: 1 },
          { lang: 'es', name: `${mark} guías`, version: 1 },
        ],
      },
      { category_id: second.category_id, items_count: 1, translations: [{ lang: 'en' }] },
    ]);
    expect(list.data.items[0]?.position).toBeLessThan(list.data.items[1]?.position ?? 0);
    const spanishOnly = await api(blogCategoryEndpoints.list, {
      ...as,
      query: { search: mark, lang: 'es' },
    });
    expect(spanishOnly.data.items.map((c) => c.category_id)).toEqual([first.category_id]);
    expect(spanishOnly.data.controls.total).toBe(1);
  });

  it('shows one category with each translation’s version, and only the blog’s', async () => {
    const category = await blogCategory('Privacy');
    await api(blogCategoryEndpoints.update, {
      ...as,
      body: {
        lang: 'en',
        name: 'Privacy matters',
        url: fresh('privacy'),
        category_id: category.category_id,
      },
    });
    const view = await api(blogCategoryEndpoints.view, {
      ...as,
      query: { category_id: category.category_id },
    });
    expect(view.status, view.text).toBe(200);
    expect(view.body).toEqual({
      category: expect.objectContaining({
        category_id: category.category_id,
        kind: 'blog',
        translations: [
          expect.objectContaining({ lang: 'en', name: 'Privacy matters', version: 2 }),
        ],
      }),
    });
    const help = await helpCategory('Setup');
    const other = await api(blogCategoryEndpoints.view, {
      ...as,
      query: { category_id: help.category_id },
    });
    expect(other.status).toBe(404);
    const none = await api(blogCategoryEndpoints.view, {
      ...as,
      query: { category_id: 2_000_000_000 },
    });
    expect(none.status).toBe(404);
  });

  it('saves over the version the list showed, refuses a stale one and changes nothing', async () => {
    const url = fresh('versioned');
    const category = await blogCategory('Versioned', url);
    const id = category.category_id;
    const shown = category.translations[0]?.version ?? 0;
    expect(shown).toBe(1);
    const save = (name: string, version?: number) =>
      api(blogCategoryEndpoints.update, {
        ...as,
        body: {
          lang: 'en',
          name,
          url,
          category_id: id,
          ...(version === undefined ? {} : { version }),
        },
      });
    const first = await save('Versioned once', shown);
    expect(first.status, first.text).toBe(200);
    expect(first.data).toMatchObject({
      success: true,
      category: { translations: [{ name: 'Versioned once', version: 2 }] },
    });
    const stale = await save('Lost words', shown);
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ errors_info: [M.staleVersion] });
    const view = await api(blogCategoryEndpoints.view, { ...as, query: { category_id: id } });
    expect(view.data.category.translations).toMatchObject([{ name: 'Versioned once', version: 2 }]);
    expect(await audited('content_category', id, 'content.category_updated')).toHaveLength(1);
    // A client from before the version check still saves (over whatever is there).
    const old = await save('Saved blind');
    expect(old.status, old.text).toBe(200);
    expect(old.data.category.translations).toMatchObject([{ name: 'Saved blind', version: 3 }]);
    // A language not written yet has no version to be stale against.
    const french = await api(blogCategoryEndpoints.update, {
      ...as,
      body: { lang: 'fr', name: 'Versionnée', url: fresh('fr'), category_id: id, version: 7 },
    });
    expect(french.status, french.text).toBe(200);
  });

  it('refuses to delete a category while a post is filed in it', async () => {
    const category = await blogCategory('Busy');
    const id = category.category_id;
    const filed = await createPost(fresh('filed'), { category_id: id });
    const busy = await api(blogCategoryEndpoints.delete, { ...as, body: { category_id: id } });
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ errors_info: [M.categoryNotEmpty] });
    expect(
      (await api(blogCategoryEndpoints.view, { ...as, query: { category_id: id } })).status,
    ).toBe(200);
    await api(postEndpoints.delete, { ...as, body: { id: filed.id } });
    const gone = await api(blogCategoryEndpoints.delete, { ...as, body: { category_id: id } });
    expect(gone.status, gone.text).toBe(200);
    expect(gone.body).toEqual({ success: true });
    expect(
      (await api(blogCategoryEndpoints.view, { ...as, query: { category_id: id } })).status,
    ).toBe(404);
    const translations = await app.db
      .select()
      .from(contentCategoryTranslations)
      .where(eq(contentCategoryTranslations.categoryId, id));
    expect(translations).toHaveLength(0);
    expect(await audited('content_category', id, 'content.category_deleted')).toMatchObject([
      { data: { kind: 'blog' } },
    ]);
    const again = await api(blogCategoryEndpoints.delete, { ...as, body: { category_id: id } });
    expect(again.status).toBe(404);
  });

  it('deletes one language of a category, never the last', async () => {
    const category = await blogCategory('Two tongues');
    const id = category.category_id;
    await api(blogCategoryEndpoints.update, {
      ...as,
      body: { lang: 'ru', name: 'Два языка', url: fresh('dva'), category_id: id },
    });
    const gone = await api(blogCategoryEndpoints.deleteLang, {
      ...as,
      body: { category_id: id, lang: 'ru' },
    });
    expect(gone.status, gone.text).toBe(200);
    const view = await api(blogCategoryEndpoints.view, { ...as, query: { category_id: id } });
    expect(view.data.category.translations.map((t) => t.lang)).toEqual(['en']);
    expect(
      await audited('content_category', id, 'content.category_translation_deleted'),
    ).toMatchObject([{ data: { kind: 'blog', lang: 'ru' } }]);
    const missing = await api(blogCategoryEndpoints.deleteLang, {
      ...as,
      body: { category_id: id, lang: 'ru' },
    });
    expect(missing.status).toBe(404);
    const last = await api(blogCategoryEndpoints.deleteLang, {
      ...as,
      body: { category_id: id, lang: 'en' },
    });
    expect(last.status).toBe(409);
    expect(last.body).toMatchObject({ errors_info: [M.lastLanguage] });
  });
});

describe("a category's SEO fields", () => {
  it('save only with the version shown, and a stale one changes nothing', async () => {
    const category = await blogCategory('Search engines');
    const id = category.category_id;
    const blind = await api(seoEndpoints.updateCategory, {
      ...as,
      body: { ...seoOf('No version'), category_id: id, lang: 'en' } as never,
    });
    expect(blind.status).toBe(422);
    expect(blind.body).toMatchObject({ errors_validation: { version: expect.any(Array) } });
    const saved = await api(seoEndpoints.updateCategory, {
      ...as,
      body: { ...seoOf('Found first'), category_id: id, lang: 'en', version: 1 },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toEqual({ success: true });
    const stale = await api(seoEndpoints.updateCategory, {
      ...as,
      body: { ...seoOf('Lost'), category_id: id, lang: 'en', version: 1 },
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ errors_info: [M.staleVersion] });
    const view = await api(blogCategoryEndpoints.view, { ...as, query: { category_id: id } });
    expect(view.data.category.translations).toMatchObject([
      { name: 'Search engines', seo_title: 'Found first', version: 2 },
    ]);
    expect(await audited('content_category', id, 'content.seo_updated')).toMatchObject([
      { data: { lang: 'en' } },
    ]);
    // The category editor's save after it must start from the SEO screen's version.
    const editor = await api(blogCategoryEndpoints.update, {
      ...as,
      body: { lang: 'en', name: 'Lost too', url: fresh('lost'), category_id: id, version: 1 },
    });
    expect(editor.status).toBe(409);
    const absent = await api(seoEndpoints.updateCategory, {
      ...as,
      body: { ...seoOf('Nobody'), category_id: id, lang: 'fr', version: 1 },
    });
    expect(absent.status).toBe(404);
  });
});

describe('help-center categories', () => {
  it('show one category with its parent and each translation’s version', async () => {
    const top = await helpCategory('Accounts');
    const sub = await helpCategory('Passwords', top.category_id);
    await api(helpCategoryEndpoints.update, {
      ...as,
      body: { lang: 'es', name: 'Contraseñas', url: fresh('claves'), category_id: sub.category_id },
    });
    const view = await api(helpCategoryEndpoints.view, {
      ...as,
      query: { category_id: sub.category_id },
    });
    expect(view.status, view.text).toBe(200);
    expect(view.data.category).toMatchObject({
      category_id: sub.category_id,
      kind: 'help',
      parent_category_id: top.category_id,
      translations: [
        { lang: 'en', name: 'Passwords', version: 1 },
        { lang: 'es', name: 'Contraseñas', version: 1 },
      ],
    });
    const blog = await blogCategory('Not help');
    const other = await api(helpCategoryEndpoints.view, {
      ...as,
      query: { category_id: blog.category_id },
    });
    expect(other.status).toBe(404);
  });

  it('delete one language, never the last', async () => {
    const category = await helpCategory('Billing');
    const id = category.category_id;
    await api(helpCategoryEndpoints.update, {
      ...as,
      body: { lang: 'nl', name: 'Facturen', url: fresh('facturen'), category_id: id },
    });
    const gone = await api(helpCategoryEndpoints.deleteLang, {
      ...as,
      body: { category_id: id, lang: 'nl' },
    });
    expect(gone.status, gone.text).toBe(200);
    expect(gone.body).toEqual({ success: true });
    const view = await api(helpCategoryEndpoints.view, { ...as, query: { category_id: id } });
    expect(view.data.category.translations.map((t) => t.lang)).toEqual(['en']);
    expect(
      await audited('content_category', id, 'content.category_translation_deleted'),
    ).toMatchObject([{ data: { kind: 'help', lang: 'nl' } }]);
    const last = await api(helpCategoryEndpoints.deleteLang, {
      ...as,
      body: { category_id: id, lang: 'en' },
    });
    expect(last.status).toBe(409);
    expect(last.body).toMatchObject({ errors_info: [M.lastLanguage] });
    // A blog category is not the help center's to change.
    const blog = await blogCategory('Blog only');
    const wrong = await api(helpCategoryEndpoints.deleteLang, {
      ...as,
      body: { category_id: blog.category_id, lang: 'en' },
    });
    expect(wrong.status).toBe(404);
  });
});

describe('FAQs', () => {
  const questions = [
    { question: 'Can I cancel?', answer: 'Yes, **any time**.' },
    { question: 'Refunds?', answer: 'Within 30 days.' },
  ];

  async function createFaq(url = fresh('faq'), extra: Record<string, unknown> = {}) {
    const answer = await api(faqEndpoints.create, {
      ...as,
      body: text(url, { name: 'Billing questions', contents: '', questions, ...extra }),
    });
    expect(answer.status, answer.text).toBe(201);
    return answer.data.item;
  }

  it('lists FAQs only, filtered like the other lists', async () => {
    const stem = fresh('faqs');
    const draft = await createFaq(`${stem}-draft`);
    const live = await createFaq(`${stem}-live`, { state: 'published' });
    await createPost(`${stem}-post`);
    const all = await api(faqEndpoints.list, { ...as, query: { search: stem } });
    expect(all.status, all.text).toBe(200);
    expect(new Set(all.data.items.map((i) => i.id))).toEqual(new Set([draft.id, live.id]));
    expect(all.data.items.every((i) => i.kind === 'faq')).toBe(true);
    const published = await api(faqEndpoints.list, {
      ...as,
      query: { search: stem, state: 'published' },
    });
    expect(published.data.items.map((i) => i.id)).toEqual([live.id]);
  });

  it('shows one FAQ with its questions, and saves them in their new order', async () => {
    const url = fresh('faq');
    const faq = await createFaq(url);
    const view = await api(faqEndpoints.view, { ...as, query: { id: faq.id } });
    expect(view.status, view.text).toBe(200);
    expect(view.data.item).toMatchObject({
      id: faq.id,
      kind: 'faq',
      translations: [{ lang: 'en', questions, version: 1 }],
    });
    const next = [
      { question: 'Refunds?', answer: 'Within **14** days.' },
      { question: 'Can I cancel?', answer: 'Yes, any time.' },
      { question: 'Which cards?', answer: 'Visa and Mastercard.' },
    ];
    const saved = await api(faqEndpoints.update, {
      ...as,
      body: {
        ...text(url, { name: 'Billing questions', contents: '', questions: next }),
        id: faq.id,
        version: 1,
      },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.data.item.translations[0]).toMatchObject({ questions: next, version: 2 });
    expect(await audited('content', faq.id, 'content.updated')).toMatchObject([
      { data: { kind: 'faq', changed: ['questions'] } },
    ]);
    const stale = await api(faqEndpoints.update, {
      ...as,
      body: { ...text(url, { name: 'Billing questions', questions: [] }), id: faq.id, version: 1 },
    });
    expect(stale.status).toBe(409);
    const blank = await api(faqEndpoints.update, {
      ...as,
      body: {
        ...text(url, {
          name: 'Billing questions',
          questions: [{ question: 'Empty?', answer: ' ' }],
        }),
        id: faq.id,
      },
    });
    expect(blank.status).toBe(422);
    const kept = await api(faqEndpoints.view, { ...as, query: { id: faq.id } });
    expect(kept.data.item.translations[0]?.questions).toEqual(next);
    // A post is not an FAQ, by any of the FAQ's calls.
    const post = await createPost();
    expect((await api(faqEndpoints.view, { ...as, query: { id: post.id } })).status).toBe(404);
  });

  it('deletes an FAQ, and a main page that showed it shows none', async () => {
    const faq = await createFaq();
    const placed = await api(seoEndpoints.mainPageFaq, {
      ...as,
      body: { page: 'pricing', faq_id: faq.id },
    });
    expect(placed.status, placed.text).toBe(200);
    const gone = await api(faqEndpoints.delete, { ...as, body: { id: faq.id } });
    expect(gone.status, gone.text).toBe(200);
    expect(gone.body).toEqual({ success: true });
    expect((await api(faqEndpoints.view, { ...as, query: { id: faq.id } })).status).toBe(404);
    expect(await audited('content', faq.id, 'content.deleted')).toMatchObject([
      { data: { kind: 'faq' } },
    ]);
    const pages = await api(seoEndpoints.mainPages, as);
    expect(pages.data.items.find((p) => p.page === 'pricing')?.faq_id).toBeNull();
  });
});

describe('help-center articles', () => {
  it('lists a category’s articles in their order, and views one', async () => {
    const category = await helpCategory('Devices');
    const first = await createArticle(category.category_id, 'Add a phone');
    const second = await createArticle(category.category_id, 'Add a laptop');
    const elsewhere = await helpCategory('Elsewhere');
    await createArticle(elsewhere.category_id, 'Not here');
    const list = await api(articleEndpoints.list, {
      ...as,
      query: { category_id: category.category_id, sort: 'position', direction: 'asc' },
    });
    expect(list.status, list.text).toBe(200);
    expect(list.data.items).toMatchObject([
      { id: first.id, kind: 'article', position: 1, category: { name: 'Devices' } },
      { id: second.id, position: 2 },
    ]);
    const view = await api(articleEndpoints.view, { ...as, query: { id: second.id } });
    expect(view.data.item).toMatchObject({
      category_id: category.category_id,
      translations: [{ name: 'Add a laptop', version: 1 }],
    });
  });

  it('saves an article, moving it to the end of its new category', async () => {
    const from = await helpCategory('From');
    const to = await helpCategory('To');
    await createArticle(to.category_id, 'Already there');
    const article = await createArticle(from.category_id, 'Moving');
    const url = article.translations[0]?.url ?? '';
    const moved = await api(articleEndpoints.update, {
      ...as,
      body: {
        ...text(url, { name: 'Moved' }),
        id: article.id,
        version: 1,
        category_id: to.category_id,
      },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.data.item).toMatchObject({
      category_id: to.category_id,
      position: 2,
      translations: [{ name: 'Moved', version: 2 }],
    });
    expect(await audited('content', article.id, 'content.updated')).toMatchObject([
      { data: { kind: 'article', changed: ['name', 'category_id'] } },
    ]);
    const blog = await blogCategory('Wrong tree');
    const wrong = await api(articleEndpoints.update, {
      ...as,
      body: { ...text(url, { name: 'Moved' }), id: article.id, category_id: blog.category_id },
    });
    expect(wrong.body).toMatchObject({ errors_validation: { category_id: [M.categoryKind] } });
  });

  it('deletes an article, and its category may go then', async () => {
    const category = await helpCategory('Short lived');
    const article = await createArticle(category.category_id, 'Only one');
    const busy = await api(helpCategoryEndpoints.delete, {
      ...as,
      body: { category_id: category.category_id },
    });
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ errors_info: [M.categoryNotEmpty] });
    const gone = await api(articleEndpoints.delete, { ...as, body: { id: article.id } });
    expect(gone.status, gone.text).toBe(200);
    expect((await api(articleEndpoints.view, { ...as, query: { id: article.id } })).status).toBe(
      404,
    );
    expect(await audited('content', article.id, 'content.deleted')).toHaveLength(1);
    const empty = await api(helpCategoryEndpoints.delete, {
      ...as,
      body: { category_id: category.category_id },
    });
    expect(empty.status, empty.text).toBe(200);
  });

  it('sorts the articles of one category, every one of them once', async () => {
    const category = await helpCategory('Sorted');
    const id = category.category_id;
    const articles = [];
    for (const name of ['One', 'Two', 'Three']) articles.push(await createArticle(id, name));
    const [a, b, c] = articles.map((article) => article.id) as [number, number, number];
    const sorted = await api(articleEndpoints.sort, {
      ...as,
      body: { category_id: id, ids: [c, a, b] },
    });
    expect(sorted.status, sorted.text).toBe(200);
    expect(sorted.body).toEqual({ success: true });
    const order = async () => {
      const list = await api(articleEndpoints.list, {
        ...as,
        query: { category_id: id, sort: 'position', direction: 'asc' },
      });
      return list.data.items.map((item) => [item.id, item.position]);
    };
    expect(await order()).toEqual([
      [c, 1],
      [a, 2],
      [b, 3],
    ]);
    expect(await audited('content_category', id, 'content.sorted')).toMatchObject([
      { data: { ids: [c, a, b] } },
    ]);
    const other = await helpCategory('Other');
    const stranger = await createArticle(other.category_id, 'Stranger');
    const refusals = [
      [c, a],
      [c, a, b, b],
      [c, a, stranger.id],
      [c, a, b, stranger.id],
    ];
    for (const ids of refusals) {
      const answer = await api(articleEndpoints.sort, { ...as, body: { category_id: id, ids } });
      expect(answer.status, JSON.stringify(ids)).toBe(422);
      expect(answer.body).toMatchObject({ errors_validation: { ids: [expect.any(String)] } });
    }
    const none = await api(articleEndpoints.sort, { ...as, body: { category_id: id, ids: [] } });
    expect(none.body).toMatchObject({ errors_validation: { ids: expect.any(Array) } });
    const empty = await helpCategory('Nothing in it');
    const nothing = await api(articleEndpoints.sort, {
      ...as,
      body: { category_id: empty.category_id, ids: [a] },
    });
    expect(nothing.status).toBe(422);
    expect(await order()).toEqual([
      [c, 1],
      [a, 2],
      [b, 3],
    ]);
  });
});

describe('authors', () => {
  it("lists who wrote items of a kind, once each, for the lists' author filter", async () => {
    const writer = await signedInUser(app, { role: 'AUTHOR', name: 'Wren Writer' });
    await api(postEndpoints.create, { cookie: writer.cookie, body: text(fresh('wren')) });
    await api(postEndpoints.create, { cookie: writer.cookie, body: text(fresh('wren')) });
    await createPost();
    const posts = await api(contentEndpoints.authors, { ...as, query: { kind: 'post' } });
    expect(posts.status, posts.text).toBe(200);
    const ids = posts.data.items.map((person) => person.user_id);
    expect(ids.filter((id) => id === writer.user.id)).toHaveLength(1);
    expect(ids).toContain(admin.user.id);
    expect(posts.data.items).toContainEqual({ user_id: writer.user.id, name: 'Wren Writer' });
    // Nobody wrote an FAQ here but the admin, if anyone: the writer is not listed.
    const faqs = await api(contentEndpoints.authors, { ...as, query: { kind: 'faq' } });
    expect(faqs.data.items.map((person) => person.user_id)).not.toContain(writer.user.id);
    const unknown = await api(contentEndpoints.authors, {
      ...as,
      query: { kind: 'poem' as never },
    });
    expect(unknown.status).toBe(422);
  });
});

describe('main pages and settings', () => {
  it('lists every main page in every language, with what was saved', async () => {
    const before = await api(seoEndpoints.mainPages, as);
    expect(before.status, before.text).toBe(200);
    expect(before.data.items.map((p) => p.page)).toEqual([...MAIN_PAGES]);
    for (const page of before.data.items) {
      expect(page.translations.map((t) => t.lang)).toEqual([...LANGS]);
    }
    const saved = await api(seoEndpoints.updateMainPage, {
      ...as,
      body: { ...seoOf('Fast, private VPN'), page: 'features', lang: 'fr' },
    });
    expect(saved.status, saved.text).toBe(200);
    const after = await api(seoEndpoints.mainPages, as);
    const features = after.data.items.find((p) => p.page === 'features');
    expect(features?.translations.find((t) => t.lang === 'fr')).toMatchObject({
      seo_title: 'Fast, private VPN',
      updated_at: expect.any(String),
    });
    expect(features?.translations.find((t) => t.lang === 'en')).toMatchObject({
      seo_title: '',
      updated_at: null,
    });
    const authors = await api(seoEndpoints.mainPages, { cookie: author.cookie });
    expect(authors.status).toBe(200);
  });

  it('reads and changes whether authors publish, an admin’s choice, audited', async () => {
    const read = await api(contentEndpoints.settings, { cookie: author.cookie });
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual({ authors_can_publish: false });
    const refused = await api(contentEndpoints.updateSettings, {
      cookie: author.cookie,
      body: { authors_can_publish: true },
    });
    expect(refused.status).toBe(403);
    const changed = await api(contentEndpoints.updateSettings, {
      ...as,
      body: { authors_can_publish: true },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toEqual({ authors_can_publish: true });
    expect((await api(contentEndpoints.settings, as)).body).toEqual({ authors_can_publish: true });
    const rows = await app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'content.settings_updated'));
    expect(rows).toMatchObject([
      {
        actorId: admin.user.id,
        subjectType: 'content_settings',
        data: { authors_can_publish: true },
      },
    ]);
    const back = await api(contentEndpoints.updateSettings, {
      ...as,
      body: { authors_can_publish: false },
    });
    expect(back.body).toEqual({ authors_can_publish: false });
    const bad = await api(contentEndpoints.updateSettings, {
      ...as,
      body: { authors_can_publish: 'yes' } as never,
    });
    expect(bad.status).toBe(422);
  });
});
