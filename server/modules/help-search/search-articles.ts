import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { categoryPath, contentPath } from '#shared/content/public-paths.ts';
import { HELP_SEARCH_LIMIT, type HelpSearchResult } from '#shared/contracts/help-search.ts';
import type { Lang } from '#shared/locales.ts';
import type { Database } from '../../db/client.ts';
import {
  contentCategoryTranslations,
  contentItems,
  contentTranslations,
  HTML_TAG_PATTERN,
  SEARCH_CONFIGS,
} from '../../db/schema/index.ts';
import { liveAt } from '../content/public-content.ts';
import { HIT_END, HIT_START, searchWords, snippetParts } from './search-text.ts';

// The help center's search (issue 23): the language's live articles whose stored search
// vector (content.ts: title A, summary B, body C, in the language's configuration) matches
// every word, the last one as a prefix while it is being typed; an exact title first, then
// by rank. Snippets come from ts_headline over the body's text.

/**
 * Every word but the last as typed words (plainto_tsquery: stemmed, stop words dropped),
 * the last as a prefix of its stem. `searchWords` keeps letters and digits only, so the
 * text handed to to_tsquery has no syntax of its own; a stop word yields an empty query,
 * which the other words' query absorbs.
 */
function tsqueryOf(config: SQL, words: readonly string[]): SQL {
  const prefix = sql`to_tsquery(${config}, ${`${words.at(-1) ?? ''}:*`}::text)`;
  if (words.length < 2) return prefix;
  return sql`(plainto_tsquery(${config}, ${words.slice(0, -1).join(' ')}::text) && ${prefix})`;
}

/** Two short passages around the hits, as a result list shows under a title. */
const HEADLINE_OPTIONS = `StartSel=${HIT_START}, StopSel=${HIT_END}, MaxWords=20, MinWords=8, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;

export async function searchArticles(
  db: Database,
  lang: Lang,
  q: string,
): Promise<HelpSearchResult[]> {
  const words = searchWords(q);
  if (words.length === 0) return [];
  const t = contentTranslations;
  const category = contentCategoryTranslations;
  const config = sql`${SEARCH_CONFIGS[lang]}::regconfig`;
  const query = tsqueryOf(config, words);
  // The whole title, whatever its case and punctuation ('simple' folds case, keeps stop words).
  const exact = sql`to_tsvector('simple'::regconfig, ${t.title}) = to_tsvector('simple'::regconfig, ${q}::text)`;
  const rows = await db
    .select({
      id: t.id,
      title: t.title,
      slug: t.slug,
      categoryName: category.name,
      categorySlug: category.slug,
    })
    .from(t)
    .innerJoin(contentItems, and(eq(contentItems.id, t.itemId), eq(contentItems.kind, 'article')))
    .leftJoin(
      category,
      and(eq(category.categoryId, contentItems.categoryId), eq(category.lang, t.lang)),
    )
    .where(
      and(
        eq(t.space, 'article'),
        eq(t.lang, lang),
        sql`${t.searchVector} @@ ${query}`,
        liveAt(new Date()),
      ),
    )
    .orderBy(desc(exact), desc(sql`ts_rank(${t.searchVector}, ${query})`), asc(t.id))
    .limit(HELP_SEARCH_LIMIT);
  if (rows.length === 0) return [];

  // Headlines cost a parse of each body: only for the results, never for every match.
  const headlines = await db
    .select({
      id: t.id,
      headline: sql<string>`ts_headline(${config}, regexp_replace(${t.bodyHtml}, ${HTML_TAG_PATTERN}::text, ' ', 'g'), ${query}, ${HEADLINE_OPTIONS}::text)`,
    })
    .from(t)
    .where(
      inArray(
        t.id,
        rows.map((row) => row.id),
      ),
    );
  const headlineOf = new Map(headlines.map((row) => [row.id, row.headline]));
  return rows.map((row) => ({
    translation_id: row.id,
    title: row.title,
    slug: row.slug,
    path: contentPath('article', lang, row.slug),
    category:
      row.categoryName !== null && row.categorySlug !== null
        ? { name: row.categoryName, path: categoryPath('help', lang, row.categorySlug) }
        : null,
    snippet: snippetParts(headlineOf.get(row.id) ?? ''),
  }));
}
