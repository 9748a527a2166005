import { helpInsightsEndpoints } from '#shared/contracts/admin/help-insights.ts';
import { helpSearchEndpoints as e } from '#shared/contracts/help-search.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { ArticleVotes } from './article-votes.ts';
import { helpInsights } from './insights-query.ts';
import { searchArticles } from './search-articles.ts';
import { countMiss } from './search-misses.ts';

const MINUTE = 60_000;

/**
 * Per address. The box asks as the visitor types (a few times a second while typing, a
 * handful of questions a visit), and an office or a carrier shares one address; a script
 * is slowed to a search every half second. Votes: a visitor reads a few articles an hour.
 */
const HELP_LIMITS = {
  search: { limit: 120, windowMs: MINUTE },
  vote: { limit: 60, windowMs: 60 * MINUTE },
} as const;

/** Issue 23 must-show 4: the help center's search, its votes, and what staff learn of them. */
export function helpSearchRoutes(app: App): Route[] {
  const votes = new ArticleVotes({ db: app.db, config: app.config, now: () => new Date() });
  const limit = (name: keyof typeof HELP_LIMITS, ip: string) =>
    app.rateLimiter.consume([{ name: `help-${name}-ip`, key: ip, ...HELP_LIMITS[name] }]);

  return [
    route(e.search, async ({ request, query }) => {
      await limit('search', request.ip);
      const items = await searchArticles(app.db, query.lang, query.q);
      if (items.length === 0) {
        // Staff's list is worth less than the visitor's answer: a failure here is logged.
        await countMiss(app, request.ip, query.lang, query.q, new Date()).catch((error) =>
          request.log.error({ err: error }, 'help-center search miss not counted'),
        );
      }
      return { items };
    }),
    route(e.vote, async ({ request, body }) => {
      await limit('vote', request.ip);
      await votes.vote(request.ip, body.translation_id, body.helpful);
      return { success: true as const };
    }),
    route(helpInsightsEndpoints.view, ({ query }) => helpInsights(app.db, query.lang)),
  ];
}
