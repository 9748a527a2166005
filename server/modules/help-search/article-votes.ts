import { createHmac, hkdfSync } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import {
  contentItems,
  contentTranslations,
  helpArticleVoteMarks,
  helpArticleVotes,
} from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { loadAppKey } from '../../platform/crypto/app-key.ts';
import { normaliseKey } from '../../platform/rate-limit/rate-limiter.ts';
import { liveAt } from '../content/public-content.ts';

export interface ArticleVotesDeps {
  db: Database;
  config: Pick<Config, 'appSecret' | 'dataDir'>;
  now: () => Date;
}

/**
 * "Was this helpful?" (issue 23): a visitor's yes or no for a live article, counted once per
 * visitor (address) and article a day. The day's mark is keyed with a key derived from the
 * app key, so the table of marks does not give the addresses away, even to someone who tries
 * every IPv4 address against it.
 */
export class ArticleVotes {
  private markKey: Promise<Buffer> | undefined;

  constructor(private readonly deps: ArticleVotesDeps) {}

  private key(): Promise<Buffer> {
    this.markKey ??= loadAppKey(this.deps.config).then((appKey) =>
      Buffer.from(hkdfSync('sha256', appKey, 'shieldline', 'help_article_vote_marks', 32)),
    );
    return this.markKey;
  }

  async vote(ip: string, translationId: number, helpful: boolean): Promise<void> {
    const { db } = this.deps;
    const t = contentTranslations;
    const [article] = await db
      .select({ id: t.id })
      .from(t)
      .innerJoin(contentItems, and(eq(contentItems.id, t.itemId), eq(contentItems.kind, 'article')))
      .where(and(eq(t.id, translationId), eq(t.space, 'article'), liveAt(new Date())));
    if (!article) throw new AppError('not_found');

    const now = this.deps.now();
    const day = now.toISOString().slice(0, 10);
    const mark = createHmac('sha256', await this.key())
      .update(`${normaliseKey(ip)}\n${translationId}\n${day}`)
      .digest('base64url');
    const yes = helpful ? 1 : 0;
    const no = helpful ? 0 : 1;
    await db.transaction(async (tx) => {
      const [fresh] = await tx
        .insert(helpArticleVoteMarks)
        .values({ mark, day })
        .onConflictDoNothing()
        .returning({ mark: helpArticleVoteMarks.mark });
      if (!fresh) return;
      await tx
        .insert(helpArticleVotes)
        .values({ translationId, yes, no, lastVotedAt: now })
        .onConflictDoUpdate({
          target: helpArticleVotes.translationId,
          set: {
            yes: sql`${helpArticleVotes.yes} + ${yes}`,
            no: sql`${helpArticleVotes.no} + ${no}`,
            lastVotedAt: now,
          },
        });
      // Only today's marks decide anything.
      await tx.delete(helpArticleVoteMarks).where(lt(helpArticleVoteMarks.day, day));
    });
  }
}
