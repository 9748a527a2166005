import { sql } from 'drizzle-orm';
import { HELP_SEARCH_MISS_MIN } from '#shared/contracts/help-search.ts';
import type { Lang } from '#shared/locales.ts';
import type { Database } from '../../db/client.ts';
import { helpSearchMisses } from '../../db/schema/index.ts';
import { normaliseKey, type RateLimiter } from '../../platform/rate-limit/rate-limiter.ts';
import { missQuery, searchWords } from './search-text.ts';

const MINUTE = 60_000;

/** The same query from the same address counts once in this long (typing, retrying). */
const SAME_MISS_WINDOW_MS = 10 * MINUTE;
/**
 * Different queries one address may add to the misses an hour: a person asks a few, a
 * script asking thousands must not bury what people asked.
 */
const MISSES_PER_IP = { limit: 30, windowMs: 60 * MINUTE };

export interface SearchMissDeps {
  db: Database;
  rateLimiter: RateLimiter;
}

/**
 * Counts a search that found nothing for staff, per language and query: once per address
 * and query in a while, and not past an address's hourly share. Short queries (an
 * unfinished first word) and queries without a word are not counted.
 */
export async function countMiss(
  deps: SearchMissDeps,
  ip: string,
  lang: Lang,
  q: string,
  now: Date,
): Promise<void> {
  const query = missQuery(q);
  // Punctuation alone was never a search.
  if ([...query].length < HELP_SEARCH_MISS_MIN || searchWords(q).length === 0) return;
  const address = normaliseKey(ip);
  const first = await deps.rateLimiter.within({
    name: 'help-miss',
    key: `${address}\n${lang}\n${query}`,
    limit: 1,
    windowMs: SAME_MISS_WINDOW_MS,
  });
  if (!first) return;
  const mine = await deps.rateLimiter.within({
    name: 'help-miss-ip',
    key: address,
    ...MISSES_PER_IP,
  });
  if (!mine) return;
  await deps.db
    .insert(helpSearchMisses)
    .values({ lang, query, count: 1, lastSearchedAt: now })
    .onConflictDoUpdate({
      target: [helpSearchMisses.lang, helpSearchMisses.query],
      set: { count: sql`${helpSearchMisses.count} + 1`, lastSearchedAt: now },
    });
}
