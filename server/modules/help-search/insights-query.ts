import { desc, eq } from 'drizzle-orm';
import { HELP_INSIGHTS_LIMIT, type HelpInsights } from '#shared/contracts/admin/help-insights.ts';
import type { Lang } from '#shared/locales.ts';
import type { Database } from '../../db/client.ts';
import { contentTranslations, helpArticleVotes, helpSearchMisses } from '../../db/schema/index.ts';

/** Staff's view of the help center's searches without results and its articles' votes. */
export async function helpInsights(db: Database, lang: Lang | undefined): Promise<HelpInsights> {
  const misses = await db
    .select()
    .from(helpSearchMisses)
    .where(lang ? eq(helpSearchMisses.lang, lang) : undefined)
    .orderBy(
      desc(helpSearchMisses.count),
      desc(helpSearchMisses.lastSearchedAt),
      helpSearchMisses.query,
    )
    .limit(HELP_INSIGHTS_LIMIT);
  const t = contentTranslations;
  const votes = await db
    .select({
      itemId: t.itemId,
      translationId: t.id,
      lang: t.lang,
      title: t.title,
      yes: helpArticleVotes.yes,
      no: helpArticleVotes.no,
      lastVotedAt: helpArticleVotes.lastVotedAt,
    })
    .from(helpArticleVotes)
    .innerJoin(t, eq(t.id, helpArticleVotes.translationId))
    .where(lang ? eq(t.lang, lang) : undefined)
    .orderBy(desc(helpArticleVotes.no), desc(helpArticleVotes.yes), t.title)
    .limit(HELP_INSIGHTS_LIMIT);
  return {
    misses: misses.map((row) => ({
      lang: row.lang as Lang,
      query: row.query,
      count: row.count,
      last_searched_at: row.lastSearchedAt.toISOString(),
    })),
    votes: votes.map((row) => ({
      item_id: row.itemId,
      translation_id: row.translationId,
      lang: row.lang as Lang,
      title: row.title,
      yes: row.yes,
      no: row.no,
      last_voted_at: row.lastVotedAt.toISOString(),
    })),
  };
}
