import {
  blogCategoryEndpoints,
  type CategoryEndpoints,
  type ContentCategory,
  helpCategoryEndpoints,
} from '#shared/contracts/admin/content.ts';
import type { Lang } from '#shared/locales.ts';

/** The two category trees of §2: the blog's (flat) and the help center's (two levels). */
export type CategoryTreeName = 'blog' | 'help';

export interface CategoryTree {
  name: CategoryTreeName;
  endpoints: CategoryEndpoints;
  /** A help category may sit under a top-level one; the blog's never do. */
  nested: boolean;
}

export const CATEGORY_TREES: Record<CategoryTreeName, CategoryTree> = {
  blog: { name: 'blog', endpoints: blogCategoryEndpoints, nested: false },
  help: { name: 'help', endpoints: helpCategoryEndpoints, nested: true },
};

/** The list's query key: the kit's list pages of the same call share its prefix. */
export const categoriesKey = (tree: CategoryTree) => ['admin', tree.endpoints.list.url];

/** Whatever has names per language: a category, or an item filed in one. */
type Named = { translations: readonly { lang: Lang; name: string }[] };

/**
 * The name of a category (or of an article filed in one) in the page's language, else
 * English, else its first translation.
 */
export function categoryName(category: Named, lang: Lang): string {
  const { translations } = category;
  return (
    translations.find((t) => t.lang === lang)?.name ??
    translations.find((t) => t.lang === 'en')?.name ??
    translations[0]?.name ??
    ''
  );
}

/** The category's address (slug) in the page's language, else its first one. */
export function categorySlug(category: Pick<ContentCategory, 'translations'>, lang: Lang): string {
  const { translations } = category;
  return (translations.find((t) => t.lang === lang) ?? translations[0])?.url ?? '';
}

/**
 * A tree's categories as the choices of a select: each top-level one followed by its
 * sub-categories, which a dash sets apart, named in the page's language.
 */
export function categoryChoices(
  categories: readonly ContentCategory[],
  lang: Lang,
): { value: string; text: string }[] {
  const choice = (category: ContentCategory, prefix = '') => ({
    value: String(category.category_id),
    text: `${prefix}${categoryName(category, lang)}`,
  });
  return categories
    .filter((category) => category.parent_category_id === null)
    .flatMap((top) => [
      choice(top),
      ...categories
        .filter((child) => child.parent_category_id === top.category_id)
        .map((child) => choice(child, '— ')),
    ]);
}
