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

/** The category's name in the page's language, else English, else its first translation. */
export function categoryName(category: Pick<ContentCategory, 'translations'>, lang: Lang): string {
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
