import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
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
import { contentRedirects, contentRevisions } from '../../db/schema/index.ts';
import { contentTestKit, seoOf } from '../../test/content-kit.ts';
import { runContentClock } from './content-clock.ts';

// Issue 22: staff's content through the real routes and database. Who may call each route
// at all is the authorization matrix's; publishing by authors is checked here.
const { app, api, author, as, fresh, ...kit } = await contentTestKit();

const post = (url: string, extra: Record<string, unknown> = {}) => ({
  lang: 'en' as const,
  name: 'Staying safe on public Wi-Fi',
  url,
  contents: '## Why it matters\n\nA **café** network is shared.\n\n- one\n- two',
  ...extra,
});

async function createPost(url = fresh('post'), extra: Record<string, unknown> = {}) {
  const answer = await api(postEndpoints.create, { ...as, body: post(url, extra) });
  expect(answer.status, answer.text).toBe(201);
  return answer.data.item;
}

const audited = (id: number, action: string) => kit.audited('content', id, action);

describe('writing a post', () => {
  it('renders the Markdown to sanitized HTML with its outline, audited', async () => {
    const item = await createPost(fresh('render'), {
      contents: '## Start here\n\n<script>alert(1)</script>[x](javascript:alert(1)) text',
      tags: ['WiFi', 'travel', 'wifi'],
    });
    const [en] = item.translations;
    expect(en).toMatchObject({ lang: 'en', state: 'draft', version: 1, tags: ['travel', 'WiFi'] });
    expect(en?.contents_html).toContain('<h2 id="user-content-start-here">Start here</h2>');
    expect(en?.contents_html).not.toMatch(/script|javascript/);
    expect(en?.toc).toEqual([{ depth: 2, id: 'user-content-start-here', text: 'Start here' }]);
    expect(await audited(item.id, 'content.created')).toHaveLength(1);
  });

  it('adds a translation with its own slug, and lists the item with both languages', async () => {
    const item = await createPost();
    const spanish = await api(postEndpoints.update, {
      ...as,
      body: { ...post(fresh('wifi-publico')), id: item.id, lang: 'es', name: 'Wi-Fi público' },
    });
    expect(spanish.status, spanish.text).toBe(200);
    expect(spanish.data.item.translations.map((t) => t.lang)).toEqual(['en', 'es']);
    const list = await api(postEndpoints.list, { ...as, query: { lang: 'es', search: 'público' } });
    expect(list.data.items.map((i) => i.id)).toContain(item.id);
  });

  it('refuses a slug taken in the language, or malformed, under its field', async () => {
    const url = fresh('taken');
    await createPost(url);
    const again = await api(postEndpoints.create, { ...as, body: post(url) });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ errors_validation: { url: [M.slugTaken] } });
    // The same slug in another language is another address.
    const other = await api(postEndpoints.create, { ...as, body: post(url, { lang: 'fr' }) });
    expect(other.status).toBe(201);
    for (const bad of ['With Spaces', 'Capitals', 'trailing-', 'a--b']) {
      const answer = await api(postEndpoints.create, { ...as, body: post(bad) });
      expect(answer.body).toMatchObject({ errors_validation: { url: [M.slugFormat] } });
    }
  });

  it('refuses an unknown language, a past schedule and a body over 200 KB', async () => {
    const unknown = await api(postEndpoints.create, {
      ...as,
      body: post(fresh('de'), { lang: 'de' }) as never,
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ errors_validation: { lang: expect.any(Array) } });
    const past = await api(postEndpoints.create, {
      ...as,
      body: post(fresh('past'), {
        state: 'scheduled',
        publish_at: new Date(Date.now() - 60_000).toISOString(),
      }),
    });
    expect(past.body).toMatchObject({ errors_validation: { publish_at: [M.publishAtPast] } });
    const none = await api(postEndpoints.create, {
      ...as,
      body: post(fresh('none'), { state: 'scheduled' }),
    });
    expect(none.body).toMatchObject({ errors_validation: { publish_at: [M.publishAtNeeded] } });
    const long = await api(postEndpoints.create, {
      ...as,
      body: post(fresh('long'), { contents: 'x'.repeat(200 * 1024 + 1) }),
    });
    expect(long.body).toMatchObject({ errors_validation: { contents: [M.bodyTooLong] } });
  });

  it('keeps a redirect from a published slug that changes', async () => {
    const old = fresh('old');
    const item = await createPost(old, { state: 'published' });
    const renamed = fresh('new');
    const answer = await api(postEndpoints.update, {
      ...as,
      body: { ...post(renamed, { state: 'published' }), id: item.id, version: 1 },
    });
    expect(answer.status, answer.text).toBe(200);
    const redirects = await app.db
      .select()
      .from(contentRedirects)
      .where(eq(contentRedirects.fromSlug, old));
    expect(redirects).toMatchObject([{ space: 'post', lang: 'en' }]);
    expect(answer.data.item.translations[0]?.redirected_from).toEqual([old]);
    // A draft's slug was never public: renaming it leaves no redirect.
    const draftSlug = fresh('draft');
    const draft = await createPost(draftSlug);
    const moved = await api(postEndpoints.update, {
      ...as,
      body: { ...post(fresh('draft2')), id: draft.id },
    });
    expect(moved.status, moved.text).toBe(200);
    const none = await app.db
      .select()
      .from(contentRedirects)
      .where(eq(contentRedirects.fromSlug, draftSlug));
    expect(none).toHaveLength(0);
  });

  it('refuses a save over a newer version and keeps a revision per change', async () => {
    const item = await createPost();
    const first = await api(postEndpoints.update, {
      ...as,
      body: {
        ...post(item.translations[0]?.url ?? '', { name: 'Second title' }),
        id: item.id,
        version: 1,
      },
    });
    expect(first.data.item.translations[0]?.version).toBe(2);
    const stale = await api(postEndpoints.update, {
      ...as,
      body: {
        ...post(item.translations[0]?.url ?? '', { name: 'Lost?' }),
        id: item.id,
        version: 1,
      },
    });
    expect(stale.status).toBe(409);
    const revisions = await api(contentEndpoints.revisions, {
      ...as,
      query: { id: item.id, lang: 'en' },
    });
    expect(revisions.data.items.map((r) => r.changed)).toEqual([
      ['name'],
      expect.arrayContaining(['name', 'url', 'contents']),
    ]);
  });
});

describe('authors', () => {
  it('write drafts but publish only when an admin allows it', async () => {
    const draft = await api(postEndpoints.create, {
      cookie: author.cookie,
      body: post(fresh('author')),
    });
    expect(draft.status, draft.text).toBe(201);
    expect(draft.data.item.can_publish).toBe(false);
    const publish = await api(postEndpoints.create, {
      cookie: author.cookie,
      body: post(fresh('author'), { state: 'published' }),
    });
    expect(publish.body).toMatchObject({ errors_validation: { state: [M.publishNotAllowed] } });
    const allow = await api(contentEndpoints.updateSettings, {
      ...as,
      body: { authors_can_publish: true },
    });
    expect(allow.status).toBe(200);
    const now = await api(postEndpoints.create, {
      cookie: author.cookie,
      body: post(fresh('author'), { state: 'published' }),
    });
    expect(now.status).toBe(201);
    await api(contentEndpoints.updateSettings, { ...as, body: { authors_can_publish: false } });
    // Published text is out of their hands again.
    const edit = await api(postEndpoints.update, {
      cookie: author.cookie,
      body: { ...post(now.data.item.translations[0]?.url ?? ''), id: now.data.item.id },
    });
    expect(edit.status).toBe(403);
  });

  it("change nothing live by a side door: a draft's category, SEO, main pages", async () => {
    const blog = await api(blogCategoryEndpoints.create, {
      ...as,
      body: { lang: 'en', name: 'Elsewhere', url: fresh('elsewhere') },
    });
    const live = await createPost(fresh('live'), { state: 'published' });
    // The Spanish draft is the author's to write, but the category shows in English too.
    const moved = await api(postEndpoints.update, {
      cookie: author.cookie,
      body: {
        ...post(fresh('borrador'), { lang: 'es', category_id: blog.data.category.category_id }),
        id: live.id,
      },
    });
    expect(moved.status).toBe(403);
    const seo = await api(seoEndpoints.updateItem, {
      cookie: author.cookie,
      body: { ...seoOf('Changed'), id: live.id, lang: 'en', version: 1 },
    });
    expect(seo.status).toBe(403);
    const home = await api(seoEndpoints.updateMainPage, {
      cookie: author.cookie,
      body: { ...seoOf('Home'), page: 'home', lang: 'en' },
    });
    expect(home.status).toBe(403);
    expect(home.body).toMatchObject({ errors_info: [M.liveSettingsNotAllowed] });
    const faq = await api(seoEndpoints.mainPageFaq, {
      cookie: author.cookie,
      body: { page: 'home', faq_id: null },
    });
    expect(faq.status).toBe(403);
    // A category has no draft: its name, address and order are live once saved.
    const categoryId = blog.data.category.category_id;
    const refusals = [
      await api(blogCategoryEndpoints.create, {
        cookie: author.cookie,
        body: { lang: 'en', name: 'Mine', url: fresh('mine') },
      }),
      await api(blogCategoryEndpoints.update, {
        cookie: author.cookie,
        body: { lang: 'en', name: 'Renamed', url: fresh('renamed'), category_id: categoryId },
      }),
      await api(blogCategoryEndpoints.delete, {
        cookie: author.cookie,
        body: { category_id: categoryId },
      }),
      await api(seoEndpoints.updateCategory, {
        cookie: author.cookie,
        body: { ...seoOf('Changed'), category_id: categoryId, lang: 'en', version: 1 },
      }),
      await api(articleEndpoints.sort, {
        cookie: author.cookie,
        body: { category_id: categoryId, ids: [live.id] },
      }),
    ];
    for (const refusal of refusals) {
      expect(refusal.status, refusal.text).toBe(403);
      expect(refusal.body).toMatchObject({ errors_info: [M.liveSettingsNotAllowed] });
    }
    const view = await api(blogCategoryEndpoints.view, {
      cookie: author.cookie,
      query: { category_id: categoryId },
    });
    expect(view.data.category.translations[0]).toMatchObject({ name: 'Elsewhere', version: 1 });
  });

  it('autosave only drafts, never folding into a save a person made', async () => {
    const draft = await createPost();
    const url = draft.translations[0]?.url ?? '';
    const save = (extra: Record<string, unknown>, autosave: boolean) =>
      api(postEndpoints.update, {
        cookie: author.cookie,
        body: { ...post(url, extra), id: draft.id, autosave },
      });
    expect((await save({ name: 'Typed' }, false)).status).toBe(200);
    expect((await save({ name: 'Typed on' }, true)).status).toBe(200);
    expect((await save({ name: 'Typed on and on' }, true)).status).toBe(200);
    const revisions = await api(contentEndpoints.revisions, {
      ...as,
      query: { id: draft.id, lang: 'en' },
    });
    // Created, saved, and one autosave holding both of its saves.
    expect(revisions.data.items).toHaveLength(3);
    const live = await createPost(fresh('autolive'), { state: 'published' });
    const auto = await api(postEndpoints.update, {
      ...as,
      body: {
        ...post(live.translations[0]?.url ?? '', { state: 'published', name: 'Half typed' }),
        id: live.id,
        autosave: true,
      },
    });
    expect(auto.status).toBe(409);
    expect(auto.body).toMatchObject({ errors_info: [M.autosaveDraftOnly] });
  });
});

describe('saving what did not change', () => {
  it('keeps no revision for the same tags in another order or the same instant elsewhere', async () => {
    const at = new Date(Date.now() + 86_400_000);
    at.setUTCMilliseconds(0);
    const item = await createPost(fresh('same'), {
      tags: ['beta', 'Alpha'],
      state: 'scheduled',
      publish_at: at.toISOString(),
    });
    const paris = new Date(at.getTime() + 3_600_000).toISOString().replace('Z', '+01:00');
    const again = await api(postEndpoints.update, {
      ...as,
      body: {
        ...post(item.translations[0]?.url ?? '', {
          tags: ['Alpha', 'beta'],
          state: 'scheduled',
          publish_at: paris,
        }),
        id: item.id,
        version: 1,
      },
    });
    expect(again.status, again.text).toBe(200);
    expect(again.data.item.translations[0]?.version).toBe(1);
  });

  it("saves a translation's SEO fields alone, versioned, with a revision", async () => {
    const item = await createPost();
    const saved = await api(seoEndpoints.updateItem, {
      ...as,
      body: { ...seoOf('Public Wi-Fi, safely'), id: item.id, lang: 'en', version: 1 },
    });
    expect(saved.status, saved.text).toBe(200);
    const stale = await api(seoEndpoints.updateItem, {
      ...as,
      body: { ...seoOf('Lost'), id: item.id, lang: 'en', version: 1 },
    });
    expect(stale.status).toBe(409);
    const view = await api(postEndpoints.view, { ...as, query: { id: item.id } });
    expect(view.data.item.translations[0]).toMatchObject({
      seo_title: 'Public Wi-Fi, safely',
      version: 2,
      contents: post('x').contents,
    });
  });

  it('moves a version on when the clock publishes', async () => {
    const item = await createPost(fresh('clock'), {
      state: 'scheduled',
      publish_at: new Date(Date.now() + 60_000).toISOString(),
    });
    await runContentClock(app.db, new Date(Date.now() + 120_000));
    const view = await api(postEndpoints.view, { ...as, query: { id: item.id } });
    expect(view.data.item.translations[0]).toMatchObject({ state: 'published', version: 2 });
  });
});

describe('pages, articles and FAQs', () => {
  it('refuses a page address the site already answers', async () => {
    const answer = await api(pageEndpoints.create, {
      ...as,
      body: { lang: 'en', name: 'Sign in', url: 'signin', contents: 'Hi' },
    });
    expect(answer.body).toMatchObject({ errors_validation: { url: [M.slugReserved] } });
  });

  it('deletes one language, never the last, and then the item', async () => {
    const url = fresh('page');
    const created = await api(pageEndpoints.create, {
      ...as,
      body: { lang: 'en', name: 'About us', url, contents: 'We are **Shieldline**.' },
    });
    const id = created.data.item.id;
    await api(pageEndpoints.update, {
      ...as,
      body: { id, lang: 'nl', name: 'Over ons', url, contents: 'Wij zijn het.' },
    });
    const lang = await api(pageEndpoints.deleteLang, { ...as, body: { id, lang: 'nl' } });
    expect(lang.body).toEqual({ success: true });
    const last = await api(pageEndpoints.deleteLang, { ...as, body: { id, lang: 'en' } });
    expect(last.status).toBe(409);
    expect((await api(pageEndpoints.delete, { ...as, body: { id } })).body).toEqual({
      success: true,
    });
    expect((await api(pageEndpoints.view, { ...as, query: { id } })).status).toBe(404);
    // A post's id is not a page.
    const item = await createPost();
    expect((await api(pageEndpoints.view, { ...as, query: { id: item.id } })).status).toBe(404);
  });

  it("takes §7's bodies: create {name,url,contents} in English, delete {page_id}", async () => {
    const url = fresh('page');
    const created = await api(pageEndpoints.create, {
      ...as,
      body: { name: 'Our story', url, contents: 'Founded **2019**.' },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.data.item.id;
    expect(created.data.item.translations.map((tr) => tr.lang)).toEqual(['en']);
    await api(pageEndpoints.update, {
      ...as,
      body: { id, lang: 'fr', name: 'Notre histoire', url, contents: 'Fondée en 2019.' },
    });
    const lang = await api(pageEndpoints.deleteLang, { ...as, body: { page_id: id, lang: 'fr' } });
    expect(lang.body).toEqual({ success: true });
    const nameless = await api(pageEndpoints.delete, { ...as, body: {} });
    expect(nameless.body).toMatchObject({
      errors_validation: { id: ['input_errors.field_is_required'] },
    });
    expect((await api(pageEndpoints.delete, { ...as, body: { page_id: id } })).body).toEqual({
      success: true,
    });
    expect((await api(pageEndpoints.view, { ...as, query: { id } })).status).toBe(404);
  });

  it('renders each FAQ answer and keeps its questions in order', async () => {
    const answer = await api(faqEndpoints.create, {
      ...as,
      body: {
        lang: 'en',
        name: 'Billing questions',
        url: fresh('faq'),
        questions: [
          { question: 'Can I cancel?', answer: 'Yes, **any time**.' },
          { question: 'Refunds?', answer: 'Within 30 days.' },
        ],
      },
    });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.data.item.translations[0]?.questions).toEqual([
      { question: 'Can I cancel?', answer: 'Yes, **any time**.' },
      { question: 'Refunds?', answer: 'Within 30 days.' },
    ]);
  });

  it('files an article only in a help-center category', async () => {
    const answer = await api(articleEndpoints.create, {
      ...as,
      body: { lang: 'en', name: 'Add a device', url: fresh('add'), category_id: 2_000_000_000 },
    });
    expect(answer.body).toMatchObject({ errors_validation: { category_id: [M.categoryKind] } });
  });
});

describe('the SEO check', () => {
  it('answers a score and the checks of a text', async () => {
    const answer = await api(contentEndpoints.analyze, {
      ...as,
      params: { key: 'blog' },
      body: {
        analyze: {
          lang: 'en',
          name: 'What is a VPN and why you need one',
          url: 'what-is-a-vpn',
          focus_keyphrase: 'what is a vpn',
          contents: 'What is a VPN? It is a tunnel.\n\n## What is a VPN for\n\nPrivacy.',
        },
      },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.data.score).toBeGreaterThan(0);
    expect(answer.data.checks.find((c) => c.id === 'keyphrase_in_title')?.passed).toBe(true);
  });
});

describe('revisions', () => {
  it('restores an earlier text as a new revision', async () => {
    const item = await createPost(fresh('restore'), { name: 'First words' });
    await api(postEndpoints.update, {
      ...as,
      body: { ...post(item.translations[0]?.url ?? '', { name: 'Other words' }), id: item.id },
    });
    const revisions = await api(contentEndpoints.revisions, {
      ...as,
      query: { id: item.id, lang: 'en' },
    });
    const oldest = revisions.data.items.at(-1);
    const detail = await api(contentEndpoints.revision, {
      ...as,
      query: { revision_id: oldest?.revision_id ?? 0 },
    });
    expect(detail.data.revision.name).toBe('First words');
    const restored = await api(contentEndpoints.restore, {
      ...as,
      body: { revision_id: oldest?.revision_id ?? 0 },
    });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.data.item.translations[0]?.name).toBe('First words');
    const rows = await app.db.select().from(contentRevisions);
    expect(rows.length).toBeGreaterThan(2);
    expect(await audited(item.id, 'content.revision_restored')).toHaveLength(1);
  });
});

describe('categories', () => {
  const category = (url: string, extra: Record<string, unknown> = {}) => ({
    lang: 'en' as const,
    name: 'Getting started',
    url,
    ...extra,
  });

  it('files sub-categories two levels deep, never under themselves or deeper', async () => {
    const top = await api(helpCategoryEndpoints.create, { ...as, body: category(fresh('top')) });
    expect(top.status, top.text).toBe(201);
    const topId = top.data.category.category_id;
    const sub = await api(helpCategoryEndpoints.create, {
      ...as,
      body: category(fresh('sub'), { parent_category_id: topId }),
    });
    expect(sub.data.category.parent_category_id).toBe(topId);
    const subId = sub.data.category.category_id;
    const deeper = await api(helpCategoryEndpoints.create, {
      ...as,
      body: category(fresh('deep'), { parent_category_id: subId }),
    });
    expect(deeper.body).toMatchObject({
      errors_validation: { parent_category_id: [M.parentHasParent] },
    });
    const own = await api(helpCategoryEndpoints.update, {
      ...as,
      body: { ...category(fresh('own')), category_id: topId, parent_category_id: topId },
    });
    expect(own.body).toMatchObject({ errors_validation: { parent_category_id: [M.ownParent] } });
    // A category with children cannot become a child itself.
    const other = await api(helpCategoryEndpoints.create, { ...as, body: category(fresh('o')) });
    const moved = await api(helpCategoryEndpoints.update, {
      ...as,
      body: {
        ...category(fresh('moved')),
        category_id: topId,
        parent_category_id: other.data.category.category_id,
      },
    });
    expect(moved.body).toMatchObject({ errors_validation: { parent_category_id: [M.tooDeep] } });
    // Not deleted while it holds a sub-category.
    const busy = await api(helpCategoryEndpoints.delete, { ...as, body: { category_id: topId } });
    expect(busy.status).toBe(409);
  });

  it('keeps the parent on a translation-only save and files a moved category last', async () => {
    const top = await api(helpCategoryEndpoints.create, { ...as, body: category(fresh('top')) });
    const other = await api(helpCategoryEndpoints.create, { ...as, body: category(fresh('oth')) });
    const topId = top.data.category.category_id;
    const otherId = other.data.category.category_id;
    await api(helpCategoryEndpoints.create, {
      ...as,
      body: category(fresh('first'), { parent_category_id: otherId }),
    });
    const url = fresh('sub');
    const sub = await api(helpCategoryEndpoints.create, {
      ...as,
      body: category(url, { parent_category_id: topId }),
    });
    const id = sub.data.category.category_id;
    const spanish = await api(helpCategoryEndpoints.update, {
      ...as,
      body: { ...category(fresh('sub-es'), { lang: 'es' }), category_id: id },
    });
    expect(spanish.data.category).toMatchObject({ parent_category_id: topId, position: 1 });
    const moved = await api(helpCategoryEndpoints.update, {
      ...as,
      body: { ...category(url, { parent_category_id: otherId }), category_id: id },
    });
    expect(moved.data.category).toMatchObject({ parent_category_id: otherId, position: 2 });
  });

  it('reorders a level, and refuses an order that leaves one out', async () => {
    const parent = await api(helpCategoryEndpoints.create, { ...as, body: category(fresh('p')) });
    const parentId = parent.data.category.category_id;
    const ids: number[] = [];
    for (const name of ['a', 'b', 'c']) {
      const child = await api(helpCategoryEndpoints.create, {
        ...as,
        body: category(fresh(name), { parent_category_id: parentId }),
      });
      ids.push(child.data.category.category_id);
    }
    const reordered = [ids[2], ids[0], ids[1]] as number[];
    const sorted = await api(helpCategoryEndpoints.sort, {
      ...as,
      body: { parent_category_id: parentId, category_ids: reordered },
    });
    expect(sorted.status, sorted.text).toBe(200);
    const list = await api(helpCategoryEndpoints.list, {
      ...as,
      query: { parent_category_id: parentId },
    });
    expect(list.data.items.map((c) => c.category_id)).toEqual(reordered);
    const partial = await api(helpCategoryEndpoints.sort, {
      ...as,
      body: { parent_category_id: parentId, category_ids: reordered.slice(1) },
    });
    expect(partial.status).toBe(422);
  });

  it('refuses an unknown image and an id past any row under their fields, never a 500', async () => {
    const image = await api(blogCategoryEndpoints.create, {
      ...as,
      body: category(fresh('img'), { og_image_id: 999_999 }),
    });
    expect(image.body).toMatchObject({ errors_validation: { og_image_id: [M.unknownMedia] } });
    const huge = await api(helpCategoryEndpoints.list, {
      ...as,
      query: { parent_category_id: 99_999_999_999 },
    });
    expect(huge.status).toBe(422);
  });

  it('keeps blog categories flat and their slugs unique per language', async () => {
    const url = fresh('guides');
    const first = await api(blogCategoryEndpoints.create, { ...as, body: category(url) });
    expect(first.status).toBe(201);
    const again = await api(blogCategoryEndpoints.create, { ...as, body: category(url) });
    expect(again.body).toMatchObject({ errors_validation: { url: [M.slugTaken] } });
    const nested = await api(blogCategoryEndpoints.create, {
      ...as,
      body: category(fresh('nested'), { parent_category_id: first.data.category.category_id }),
    });
    expect(nested.body).toMatchObject({ errors_validation: { parent_category_id: [M.tooDeep] } });
  });
});
