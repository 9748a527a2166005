import { z } from 'zod';
import { LANGS } from '../locales.ts';
import { recordIdNumber } from '../validation/record-id.ts';
import { FIELD_TOO_LONG } from '../validation/zod-messages.ts';
import { endpoint } from './endpoint.ts';

// Issue 23 must-show 4: the help center's search box, answering as the visitor types, and
// "was this helpful?" under each article. Both are open to anyone and limited per address
// (server/modules/help-search/); staff read what they add up to (admin/help-insights.ts).

const invalid = { error: 'input_errors.field_is_invalid' };

/** The longest query the box sends: far past any question, short of abuse. */
export const HELP_SEARCH_QUERY_MAX = 200;
/** Results of one search at most. */
export const HELP_SEARCH_LIMIT = 10;
/** A query this long (trimmed) that finds nothing is counted for staff as a miss. */
export const HELP_SEARCH_MISS_MIN = 3;

export const helpSearchQuery = z.object({
  lang: z.enum(LANGS, invalid),
  /** Words as typed; the last one may be unfinished (a prefix). Operators mean nothing. */
  q: z.string(invalid).max(HELP_SEARCH_QUERY_MAX, { error: FIELD_TOO_LONG }),
});

/**
 * A piece of a result's snippet: plain text, `hit` where it matched the query. Render each
 * as text (a `<mark>` element around the hits); the snippet is never HTML.
 */
export const snippetPart = z.object({ text: z.string(), hit: z.boolean() });
export type SnippetPart = z.infer<typeof snippetPart>;

export const helpSearchResult = z.object({
  /** The text "was this helpful?" votes for (also on the article's page). */
  translation_id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  /** The article's public address, `/{lang}/help-center/article/{slug}`. */
  path: z.string(),
  /** Its category in the same language, if it has one there. */
  category: z.object({ name: z.string(), path: z.string() }).nullable(),
  /** A few words of the body around the hits; empty for an article without a body. */
  snippet: z.array(snippetPart),
});
export type HelpSearchResult = z.infer<typeof helpSearchResult>;

export const helpSearchResponse = z.object({ items: z.array(helpSearchResult) });

export const helpVoteRequest = z.object({
  translation_id: recordIdNumber,
  helpful: z.boolean(invalid),
});

export const helpSearchEndpoints = {
  search: endpoint({
    method: 'GET',
    base: 'public',
    path: '/help-center/search',
    access: 'public',
    tag: 'help-center',
    summary:
      "Search the language's live help-center articles (full text, stemmed; the last word may be a prefix); at most 10, best first",
    query: helpSearchQuery,
    response: helpSearchResponse,
  }),
  vote: endpoint({
    method: 'POST',
    base: 'public',
    path: '/help-center/articles/vote',
    access: 'public',
    tag: 'help-center',
    summary:
      'Was this article helpful? One vote per visitor and article a day counts; a live article only (404 otherwise)',
    body: helpVoteRequest,
    response: z.object({ success: z.literal(true) }),
  }),
} as const;
