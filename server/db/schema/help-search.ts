import { date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { contentTranslations } from './content.ts';

// The help center's search and "was this helpful?" (issue 23): what visitors searched for
// and found nothing, and their votes per article. Visitors are anonymous; no address is kept.

/** A search that found nothing, counted per language and query. */
export const helpSearchMisses = pgTable(
  'help_search_misses',
  {
    lang: text().notNull(),
    /** Trimmed, lowercased, single-spaced. */
    query: text().notNull(),
    count: integer().notNull().default(1),
    lastSearchedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.lang, table.query] }),
    // Staff's list: the most searched first, per language or in all.
    index('help_search_misses_top_idx').on(table.count, table.lastSearchedAt),
  ],
);

/** "Was this helpful?" per article translation: the yes and no votes it has. */
export const helpArticleVotes = pgTable('help_article_votes', {
  translationId: integer()
    .primaryKey()
    .references(() => contentTranslations.id, { onDelete: 'cascade' }),
  yes: integer().notNull().default(0),
  no: integer().notNull().default(0),
  lastVotedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * That a visitor voted for an article on a day, so a repeat that day counts once: a keyed
 * hash (HMAC) of the address, the translation and the day, which cannot be turned back into
 * the address. Marks older than yesterday are deleted as new votes come in.
 */
export const helpArticleVoteMarks = pgTable(
  'help_article_vote_marks',
  {
    mark: text().primaryKey(),
    day: date({ mode: 'string' }).notNull(),
  },
  (table) => [index('help_article_vote_marks_day_idx').on(table.day)],
);
