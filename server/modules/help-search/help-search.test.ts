import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { articleEndpoints } from '#shared/contracts/admin/content.ts';
import { helpInsightsEndpoints } from '#shared/contracts/admin/help-insights.ts';
import { type HelpSearchResult, helpSearchEndpoints } from '#shared/contracts/help-search.ts';
import type { Lang } from '#shared/locales.ts';
import { contentTranslations, helpArticleVoteMarks } from '../../db/schema/index.ts';
import { apiClient, endpointClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser } from '../../test/test-sessions.ts';
import { seedDemoContent } from '../content/demo-content.ts';
import { missQuery, searchWords, snippetParts } from './search-text.ts';

// Issue 23 must-show 4: the help center's search over the demo articles in every language
// (stemmed, the last word a prefix, an exact title first, live articles only, snippets as
// text), the searches that found nothing, "was this helpful?", and staff reading both.

const { app } = await createTestApp();
const api = endpointClient(app);
const admin = await signedInUser(app, { role: 'ADMIN' });
const author = await signedInUser(app, { role: 'AUTHOR' });
const customer = await signedInUser(app);
let serial = 0;
/** A word no demo article has, different in every test. */
const oddWord = () => `zorblax${String.fromCharCode(97 + (serial++ % 26))}${serial}`;

beforeAll(async () => {
  expect(await seedDemoContent(app.db)).toBe(true);
});

async function search(lang: Lang, q: string, ip?: string): Promise<HelpSearchResult[]> {
  const answer = await api(helpSearchEndpoints.search, {
    query: { lang, q },
    ...(ip ? { ip } : {}),
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.data.items;
}

const titles = (results: HelpSearchResult[]) => results.map((result) => result.title);

async function createArticle(
  name: string,
  contents: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: number; translationId: number }> {
  const answer = await api(articleEndpoints.create, {
    cookie: admin.cookie,
    body: {
      lang: 'en',
      name,
      url: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${serial++}`,
      contents,
      state: 'published',
      ...extra,
    },
  });
  expect(answer.status, answer.text).toBe(201);
  const [row] = await app.db
    .select({ id: contentTranslations.id })
    .from(contentTranslations)
    .where(eq(contentTranslations.itemId, answer.data.item.id));
  return { id: answer.data.item.id, translationId: row?.id ?? 0 };
}

async function insights(lang?: Lang) {
  const answer = await api(helpInsightsEndpoints.view, {
    cookie: admin.cookie,
    query: lang ? { lang } : {},
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.data;
}

describe('searching the help center', () => {
  it.each([
    ['en', 'How to Add a Device'],
    ['es', 'Configurar la VPN en el router'],
    ['fr', 'Configurer le VPN sur un routeur'],
    ['nl', 'Een apparaat toevoegen'],
    ['ru', 'Как удалить аккаунт Shieldline VPN'],
  ] as const)('in %s ranks the article titled exactly "%s" first', async (lang, title) => {
    const results = await search(lang, title.toLowerCase());
    expect(results.length).toBeGreaterThan(1);
    expect(results[0]).toMatchObject({
      title,
      path: `/${lang}/help-center/article/${results[0]?.slug}`,
      category: { path: expect.stringMatching(`^/${lang}/help-center/category/`) },
    });
    expect(results[0]?.category?.name).not.toBe('');
    expect(results.length).toBeLessThanOrEqual(10);
  });

  it.each([
    ['en', 'connections', 'How to Fix a Slow VPN Connection'],
    ['es', 'pagos', 'Métodos de pago aceptados'],
    ['fr', 'remboursements', 'Notre politique de remboursement'],
    ['nl', 'apparaten', 'Een apparaat toevoegen'],
    ['ru', 'подписки', 'Как отменить подписку Shieldline VPN'],
  ] as const)('in %s finds other forms of a word: "%s" finds "%s"', async (lang, q, title) => {
    expect(titles(await search(lang, q))).toContain(title);
  });

  it('finds a word by its beginning while it is typed, in the language of the box only', async () => {
    expect(titles(await search('en', 'wiregu'))).toContain(
      'Set Up WireGuard on Linux with wg-quick',
    );
    expect(titles(await search('en', 'two-fac'))).toContain('Turn On Two-Factor Authentication');
    expect(titles(await search('ru', 'роут'))).toContain(
      'Как настроить VPN на роутере с WireGuard',
    );
    expect(titles(await search('fr', 'rembour'))).toContain('Notre politique de remboursement');
    // Earlier words are whole words; every word must be there.
    expect(titles(await search('en', 'refund pol'))[0]).toBe('Our Refund Policy');
    expect(await search('en', `refund ${oddWord()}`)).toEqual([]);
    expect(titles(await search('en', 'remboursement'))).toEqual([]);
  });

  it('puts an exact title before texts that say its words more often', async () => {
    const word = oddWord();
    const heavy = await createArticle(`${word} ${word} guide`, `${word} `.repeat(40), {
      summary: `All about ${word}.`,
    });
    const exact = await createArticle(word, 'Short.');
    const found = await search('en', word.toUpperCase());
    expect(found.map((result) => result.translation_id)).toEqual([
      exact.translationId,
      heavy.translationId,
    ]);
  });

  it('marks the hits of its snippet, as text', async () => {
    const [first] = await search('en', 'handshake');
    expect(first?.title).toBe('Tunnel On but No Handshake? How to Fix It');
    const hits = first?.snippet.filter((part) => part.hit) ?? [];
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(hit.text.toLowerCase()).toContain('handshake');
    const text = first?.snippet.map((part) => part.text).join('') ?? '';
    expect(text).not.toMatch(/<\/?[a-z]/);
  });

  it('shows text that looks like markup as text, and finds what staff save', async () => {
    const word = oddWord();
    const article = await createArticle(
      `Quotas for ${word}`,
      `Use <mark>${word}</mark> & "${word}" when a < b > c, [${word}](https://example.com/?a=1&b=2).`,
    );
    const [found] = await search('en', word);
    expect(found?.translation_id).toBe(article.translationId);
    expect(found?.category).toBeNull();
    expect(found?.snippet.map((part) => part.text).join('')).toContain(
      `Use ${word} & "${word}" when a < b > c, ${word}`,
    );
    expect(found?.snippet.filter((part) => part.hit).map((part) => part.text)).toEqual([
      word,
      word,
      word,
    ]);
  });

  it('never shows a draft, an article scheduled for later, or one taken down', async () => {
    const word = oddWord();
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const live = await createArticle(`Live ${word}`, 'Published.');
    await createArticle(`Draft ${word}`, 'Not yet.', { state: 'draft' });
    await createArticle(`Scheduled ${word}`, 'Tomorrow.', {
      state: 'scheduled',
      publish_at: later,
    });
    await createArticle(`Unpublished ${word}`, 'Gone.', { state: 'unpublished' });
    const ended = await createArticle(`Ended ${word}`, 'Over.');
    const due = await createArticle(`Due ${word}`, 'Now.');
    const past = new Date(Date.now() - 60_000);
    await app.db
      .update(contentTranslations)
      .set({ unpublishAt: past })
      .where(eq(contentTranslations.id, ended.translationId));
    // Scheduled and due, before the clock's next round: live, as isLive says.
    await app.db
      .update(contentTranslations)
      .set({ state: 'scheduled', publishAt: past })
      .where(eq(contentTranslations.id, due.translationId));

    const found = await search('en', word);
    expect(found.map((result) => result.translation_id).sort()).toEqual(
      [live.translationId, due.translationId].sort(),
    );
    expect(titles(await search('es', word))).toEqual([]);
  });

  it('answers anything typed, operators and quotes included, without an error', async () => {
    for (const q of [
      'foo & | ! ( ) :*',
      "'",
      "''",
      '\\',
      ':*',
      'a:* & b',
      '!!!',
      '(((',
      '<mark>',
      'Tom & Jerry <-> x',
      "l'application",
      'wi-fi',
      '🙂 vpn',
      'the',
      'the of and',
      '  ',
      '',
      'x'.repeat(200),
      `${'é'.normalize('NFD')}cran`,
    ]) {
      const answer = await api(helpSearchEndpoints.search, { query: { lang: 'en', q } });
      expect(answer.status, `${q}: ${answer.text}`).toBe(200);
    }
    const long = await api(helpSearchEndpoints.search, {
      query: { lang: 'en', q: 'x'.repeat(201) },
    });
    expect(long.status).toBe(422);
    const lang = await api(helpSearchEndpoints.search, { query: { lang: 'de' as Lang, q: 'vpn' } });
    expect(lang.status).toBe(422);
  });

  it('is limited per address', async () => {
    const ip = '203.0.113.40';
    for (let i = 0; i < 120; i++) {
      const answer = await api(helpSearchEndpoints.search, { query: { lang: 'en', q: '' }, ip });
      expect(answer.status).toBe(200);
    }
    const over = await api(helpSearchEndpoints.search, { query: { lang: 'en', q: '' }, ip });
    expect(over.status).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
  });
});

describe('searches that found nothing', () => {
  it('are counted per language and query for staff, once per address in a while', async () => {
    const word = oddWord();
    const q = `  How   ${word.toUpperCase()} `;
    await search('en', q, '198.51.100.1');
    await search('en', q.trim(), '198.51.100.1');
    await search('en', q, '198.51.100.2');
    await search('fr', q, '198.51.100.1');
    const all = await insights();
    const mine = all.misses.filter((miss) => miss.query === `how ${word}`);
    expect(mine).toEqual([
      { lang: 'en', query: `how ${word}`, count: 2, last_searched_at: expect.any(String) },
      { lang: 'fr', query: `how ${word}`, count: 1, last_searched_at: expect.any(String) },
    ]);
    expect((await insights('fr')).misses.map((miss) => miss.lang)).not.toContain('en');
  });

  it('leave out what found something, and queries too short to mean anything', async () => {
    await search('en', 'handshake', '198.51.100.3');
    await search('en', 'zq', '198.51.100.3');
    await search('en', '?!?!', '198.51.100.3');
    const queries = (await insights('en')).misses.map((miss) => miss.query);
    expect(queries).not.toContain('handshake');
    expect(queries).not.toContain('zq');
    expect(queries).not.toContain('?!?!');
  });

  it('take only a few new queries an hour from one address', async () => {
    const ip = '198.51.100.9';
    const word = oddWord();
    for (let i = 0; i < 35; i++) await search('nl', `${word} ${i}`, ip);
    const mine = (await insights('nl')).misses.filter((miss) => miss.query.startsWith(word));
    expect(mine).toHaveLength(30);
  });
});

describe('was this helpful?', () => {
  it('counts yes and no per article translation, a repeat from one visitor in a day once', async () => {
    const { id, translationId } = await createArticle(`Votes ${oddWord()}`, 'Helpful?');
    const vote = (helpful: boolean, ip: string) =>
      api(helpSearchEndpoints.vote, { body: { translation_id: translationId, helpful }, ip });
    expect((await vote(true, '192.0.2.50')).data).toEqual({ success: true });
    expect((await vote(true, '192.0.2.50')).status).toBe(200);
    expect((await vote(false, '192.0.2.50')).status).toBe(200);
    expect((await vote(true, '192.0.2.51')).status).toBe(200);
    expect((await vote(false, '192.0.2.52')).status).toBe(200);
    // An IPv6 visitor is one /64, as the rate limits count them.
    expect((await vote(false, '2001:db8:1:2::a')).status).toBe(200);
    expect((await vote(false, '2001:db8:1:2::b')).status).toBe(200);

    const row = (await insights('en')).votes.find((v) => v.translation_id === translationId);
    expect(row).toMatchObject({ item_id: id, lang: 'en', yes: 2, no: 2 });
    // No address is stored, only the keyed marks of today.
    const marks = await app.db.select().from(helpArticleVoteMarks);
    expect(JSON.stringify(marks)).not.toMatch(/192\.0\.2|2001:db8/);
  });

  it('forgets the marks of earlier days', async () => {
    await app.db.insert(helpArticleVoteMarks).values({ mark: 'old', day: '2020-01-01' });
    const { translationId } = await createArticle(`Marks ${oddWord()}`, 'Helpful?');
    await api(helpSearchEndpoints.vote, { body: { translation_id: translationId, helpful: true } });
    const old = await app.db
      .select()
      .from(helpArticleVoteMarks)
      .where(sql`${helpArticleVoteMarks.day} < current_date - 1`);
    expect(old).toEqual([]);
  });

  it('takes votes for live articles only', async () => {
    const draft = await createArticle(`Draft ${oddWord()}`, 'No.', { state: 'draft' });
    const refused = await api(helpSearchEndpoints.vote, {
      body: { translation_id: draft.translationId, helpful: true },
    });
    expect(refused.status).toBe(404);
    const missing = await api(helpSearchEndpoints.vote, {
      body: { translation_id: 2_000_000_000, helpful: true },
    });
    expect(missing.status).toBe(404);
    const invalid = await api(helpSearchEndpoints.vote, {
      body: { translation_id: draft.translationId } as never,
    });
    expect(invalid.status).toBe(422);
  });

  it('refuses a vote posted from another site (CSRF)', async () => {
    const { translationId } = await createArticle(`Csrf ${oddWord()}`, 'Helpful?');
    const call = apiClient(app);
    const forged = await call('POST', helpSearchEndpoints.vote.url, {
      body: { translation_id: translationId, helpful: false },
      headers: { 'x-requested-with': '' },
    });
    expect(forged.status).toBe(403);
  });

  it('is limited per address', async () => {
    const { translationId } = await createArticle(`Limit ${oddWord()}`, 'Helpful?');
    const ip = '203.0.113.41';
    for (let i = 0; i < 60; i++) {
      const answer = await api(helpSearchEndpoints.vote, {
        body: { translation_id: translationId, helpful: true },
        ip,
      });
      expect(answer.status).toBe(200);
    }
    const over = await api(helpSearchEndpoints.vote, {
      body: { translation_id: translationId, helpful: true },
      ip,
    });
    expect(over.status).toBe(429);
  });
});

describe("staff's insights", () => {
  it('are for staff with the content permission', async () => {
    for (const [session, status] of [
      [admin, 200],
      [author, 200],
      [customer, 403],
    ] as const) {
      const answer = await api(helpInsightsEndpoints.view, { cookie: session.cookie });
      expect(answer.status, answer.text).toBe(status);
    }
    expect((await api(helpInsightsEndpoints.view)).status).toBe(401);
  });
});

describe('the query text', () => {
  it('keeps only words, so no tsquery syntax gets through', () => {
    expect(searchWords("foo & | ! ( ) :* ' bar")).toEqual(['foo', 'bar']);
    expect(searchWords('wg-quick: l’appli')).toEqual(['wg', 'quick', 'l', 'appli']);
    expect(searchWords(`${'é'.normalize('NFD')}cran`)).toEqual(['écran']);
    expect(searchWords('Подключение к VPN')).toEqual(['Подключение', 'к', 'VPN']);
  });

  it('is kept among the misses trimmed, lowercased and single-spaced', () => {
    expect(missQuery('  Kill   SWITCH\t ')).toBe('kill switch');
  });

  it('reads a headline as text parts', () => {
    expect(snippetParts('Fix  the <mark>handshake</mark> &#x3C;b> &#x26; <mark>a</mark>')).toEqual([
      { text: 'Fix the ', hit: false },
      { text: 'handshake', hit: true },
      { text: ' <b> & ', hit: false },
      { text: 'a', hit: true },
    ]);
    expect(snippetParts('')).toEqual([]);
    expect(snippetParts('&#0; &#xD800; &bogus;')).toEqual([
      { text: '&#0; &#xD800; &bogus;', hit: false },
    ]);
  });
});
