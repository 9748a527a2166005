import { z } from 'zod';
import { LANGS } from '../../locales.ts';
import { endpoint } from '../endpoint.ts';

// Issue 23 must-show 4, for staff: what visitors searched the help center for and found
// nothing, and how they rated the articles ("was this helpful?"), on the help-center
// overview (admin-help-insights.json).

const invalid = { error: 'input_errors.field_is_invalid' };
const lang = z.enum(LANGS, invalid);

/** Rows of each list at most: the top of it is what staff act on. */
export const HELP_INSIGHTS_LIMIT = 50;

export const helpSearchMiss = z.object({
  lang,
  /** Trimmed, lowercased, single-spaced. */
  query: z.string(),
  count: z.number().int(),
  last_searched_at: z.iso.datetime({ offset: true }),
});
export type HelpSearchMiss = z.infer<typeof helpSearchMiss>;

export const helpArticleVotes = z.object({
  /** The article (its editor's id). */
  item_id: z.number().int(),
  translation_id: z.number().int(),
  lang,
  title: z.string(),
  yes: z.number().int(),
  no: z.number().int(),
  last_voted_at: z.iso.datetime({ offset: true }),
});
export type HelpArticleVotes = z.infer<typeof helpArticleVotes>;

export const helpInsightsQuery = z.object({ lang: lang.optional() });

export const helpInsightsResponse = z.object({
  /** The most searched first. */
  misses: z.array(helpSearchMiss),
  /** The most "no" votes first, then the most "yes". */
  votes: z.array(helpArticleVotes),
});
export type HelpInsights = z.infer<typeof helpInsightsResponse>;

export const helpInsightsEndpoints = {
  view: endpoint({
    method: 'GET',
    base: 'dashboard',
    path: '/help-center/insights',
    access: { permission: 'content' },
    tag: 'help-center',
    summary:
      "The help center's searches without results (most counted first) and its articles' votes, in one language or all",
    query: helpInsightsQuery,
    response: helpInsightsResponse,
  }),
} as const;
