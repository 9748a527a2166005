import { and, eq, gt, inArray, isNull, lte, or, type SQL } from 'drizzle-orm';
import {
  CONTENT_DEFAULT_LANG,
  type ContentKind,
  type SlugSpace,
  slugSpaceOf,
} from '#shared/content/content-values.ts';
import { contentPath } from '#shared/content/public-paths.ts';
import type { Lang } from '#shared/locales.ts';
import type { Database } from '../../db/client.ts';
import {
  type ContentItemRow,
  type ContentTranslationRow,
  contentItems,
  contentRedirects,
  contentTranslations,
} from '../../db/schema/index.ts';

/** The language every item is written in first: a missing translation shows its text. */
export const DEFAULT_LANG: Lang = CONTENT_DEFAULT_LANG;

/** What a public address of content answers (issue 23's pages are made from it). */
export type PublicContent =
  | {
      kind: 'found';
      item: ContentItemRow;
      translation: ContentTranslationRow;
      /** Set when the visitor's language has no text yet: this is the default language's. */
      fallbackFrom: Lang | null;
    }
  | { kind: 'moved'; to: string }
  | { kind: 'missing' };

/**
 * Whether a translation is public at `now`: published (or scheduled and due, before the
 * clock's next round) and not past its end.
 */
export function isLive(row: ContentTranslationRow, now: Date): boolean {
  if (row.unpublishAt && row.unpublishAt <= now) return false;
  if (row.state === 'published') return true;
  return row.state === 'scheduled' && row.publishAt !== null && row.publishAt <= now;
}

/** `isLive` in SQL, for queries that list what is public at `now`. */
export function liveAt(now: Date): SQL {
  const t = contentTranslations;
  return and(
    or(eq(t.state, 'published'), and(eq(t.state, 'scheduled'), lte(t.publishAt, now))),
    or(isNull(t.unpublishAt), gt(t.unpublishAt, now)),
  ) as SQL;
}

async function liveTranslations(db: Database, itemId: number, now: Date) {
  const rows = await db
    .select()
    .from(contentTranslations)
    .where(eq(contentTranslations.itemId, itemId));
  return rows.filter((row) => isLive(row, now));
}

/**
 * The content at `/{lang}/…/{slug}` in a section. A text in the visitor's language is it; an
 * address that changed answers where the text is now; an address of the default language's
 * text, for an item not written in the visitor's language, shows that text and says so (a
 * translation written since moves the visitor to it).
 */
export async function findPublicContent(
  db: Database,
  kinds: readonly ContentKind[],
  lang: Lang,
  slug: string,
  now = new Date(),
): Promise<PublicContent> {
  const spaces = [...new Set(kinds.map(slugSpaceOf))] as SlugSpace[];
  const inSpace = (lang: Lang) =>
    and(
      inArray(contentTranslations.space, spaces),
      eq(contentTranslations.lang, lang),
      eq(contentTranslations.slug, slug),
    );
  const found = async (translation: ContentTranslationRow, fallbackFrom: Lang | null) => {
    const [item] = await db
      .select()
      .from(contentItems)
      .where(and(eq(contentItems.id, translation.itemId), inArray(contentItems.kind, [...kinds])));
    return item ? ({ kind: 'found', item, translation, fallbackFrom } as const) : null;
  };

  const [own] = await db.select().from(contentTranslations).where(inSpace(lang));
  if (own && isLive(own, now)) return (await found(own, null)) ?? { kind: 'missing' };

  const [redirect] = await db
    .select({ translation: contentTranslations, kind: contentItems.kind })
    .from(contentRedirects)
    .innerJoin(contentTranslations, eq(contentTranslations.id, contentRedirects.translationId))
    .innerJoin(contentItems, eq(contentItems.id, contentTranslations.itemId))
    .where(
      and(
        inArray(contentRedirects.space, spaces),
        eq(contentRedirects.lang, lang),
        eq(contentRedirects.fromSlug, slug),
      ),
    );
  if (
    redirect &&
    isLive(redirect.translation, now) &&
    kinds.includes(redirect.kind as ContentKind)
  ) {
    return {
      kind: 'moved',
      to: contentPath(redirect.kind as ContentKind, lang, redirect.translation.slug),
    };
  }

  if (lang === DEFAULT_LANG || own) return { kind: 'missing' };
  const [original] = await db.select().from(contentTranslations).where(inSpace(DEFAULT_LANG));
  if (!original || !isLive(original, now)) return { kind: 'missing' };
  const translated = (await liveTranslations(db, original.itemId, now)).find(
    (row) => row.lang === lang,
  );
  const item = await found(original, DEFAULT_LANG);
  if (!item) return { kind: 'missing' };
  if (translated) {
    return { kind: 'moved', to: contentPath(item.item.kind as ContentKind, lang, translated.slug) };
  }
  return item;
}
