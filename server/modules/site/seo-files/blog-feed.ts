import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { Feed } from 'feed';
import { blogFeedPath, contentPath, sectionPath } from '#shared/content/public-paths.ts';
import type { Lang } from '#shared/locales.ts';
import type { Database } from '../../../db/client.ts';
import {
  contentCategoryTranslations,
  contentItems,
  contentTranslations,
  mainPageSeo,
  users,
} from '../../../db/schema/index.ts';
import { DEFAULT_LANG, liveAt } from '../../content/public-content.ts';
import { xmlSafe as plain } from './sitemap-xml.ts';

/** Posts a feed carries, newest first. */
export const FEED_SIZE = 20;

/** The name a post without a known author is signed with, and the feed's fallback title. */
export const SITE_NAME = 'Shieldline VPN';

/**
 * The blog of a language as a feed (RSS 2.0 and Atom 1.0 come from it): its newest live
 * posts written in that language (the English text shown as a fallback is the English
 * feed's), each with its author, category and dates. Three queries.
 */
export async function blogFeed(db: Database, lang: Lang, origin: string, now: Date): Promise<Feed> {
  // When a post went public: a scheduled one that is due but not yet marked published by
  // the clock (content-clock.ts) went at its publish_at.
  const { publishedAt, publishAt, updatedAt } = contentTranslations;
  const postDate = sql`coalesce(${publishedAt}, ${publishAt}, ${updatedAt})`;
  const [posts, categories, [seo]] = await Promise.all([
    db
      .select({
        title: contentTranslations.title,
        slug: contentTranslations.slug,
        summary: contentTranslations.summary,
        publishedAt: contentTranslations.publishedAt,
        publishAt: contentTranslations.publishAt,
        updatedAt: contentTranslations.updatedAt,
        categoryId: contentItems.categoryId,
        authorName: users.name,
        authorUsername: users.username,
      })
      .from(contentTranslations)
      .innerJoin(contentItems, eq(contentItems.id, contentTranslations.itemId))
      // The post page's author: the translation's, else the item's.
      .leftJoin(
        users,
        eq(users.id, sql`coalesce(${contentTranslations.authorId}, ${contentItems.authorId})`),
      )
      .where(and(eq(contentItems.kind, 'post'), eq(contentTranslations.lang, lang), liveAt(now)))
      .orderBy(desc(postDate), desc(contentItems.id))
      .limit(FEED_SIZE),
    db
      .select({
        categoryId: contentCategoryTranslations.categoryId,
        lang: contentCategoryTranslations.lang,
        name: contentCategoryTranslations.name,
      })
      .from(contentCategoryTranslations)
      .where(
        and(
          eq(contentCategoryTranslations.kind, 'blog'),
          inArray(contentCategoryTranslations.lang, [...new Set([lang, DEFAULT_LANG])]),
        ),
      ),
    db
      .select({ title: mainPageSeo.title, description: mainPageSeo.description })
      .from(mainPageSeo)
      .where(and(eq(mainPageSeo.page, 'blog'), eq(mainPageSeo.lang, lang))),
  ]);

  // A category's name in the language, else in the default one (as the blog shows it).
  const categoryName = new Map<number, string>();
  for (const row of categories) {
    if (row.lang === lang || !categoryName.has(row.categoryId)) {
      categoryName.set(row.categoryId, row.name);
    }
  }

  const absolute = (path: string) => new URL(origin + path).href;
  const blog = absolute(sectionPath('blog', lang));
  const feed = new Feed({
    id: blog,
    link: blog,
    title: plain(seo?.title || `${SITE_NAME} Blog`),
    description: plain(seo?.description ?? ''),
    language: lang,
    updated:
      posts.reduce<Date | undefined>(
        (latest, post) => (!latest || post.updatedAt > latest ? post.updatedAt : latest),
        undefined,
      ) ?? now,
    feedLinks: {
      rss: absolute(blogFeedPath('rss', lang)),
      atom: absolute(blogFeedPath('atom', lang)),
    },
    generator: false,
  });
  for (const post of posts) {
    const category = post.categoryId === null ? undefined : categoryName.get(post.categoryId);
    const published = post.publishedAt ?? post.publishAt ?? post.updatedAt;
    feed.addItem({
      title: plain(post.title),
      link: absolute(contentPath('post', lang, post.slug)),
      // Atom's `updated` is never before `published` (a save stamps them apart).
      date: post.updatedAt > published ? post.updatedAt : published,
      published,
      description: plain(post.summary),
      author: [{ name: plain(post.authorName || post.authorUsername || SITE_NAME) }],
      ...(category ? { category: [{ name: plain(category) }] } : {}),
    });
  }
  return feed;
}
