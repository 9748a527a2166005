import { useQuery } from '@tanstack/react-query';
import type { ContentCategory } from '#shared/contracts/admin/content.ts';
import { MAX_PER_PAGE } from '#shared/contracts/list.ts';
import { call } from '../../../api/client.ts';
import { type CategoryTree, categoriesKey } from './category-trees.ts';

/**
 * Every category of a tree, in the server's order (each parent, then its children, each
 * level by position). A tree is tens of categories, so the pages are read one after another.
 */
export function useAllCategories(tree: CategoryTree) {
  return useQuery({
    queryKey: [...categoriesKey(tree), 'all'],
    queryFn: async ({ signal }) => {
      const all: ContentCategory[] = [];
      for (let page = 1; ; page += 1) {
        const answer = await call(
          tree.endpoints.list,
          { query: { page, per_page: MAX_PER_PAGE } },
          { signal },
        );
        all.push(...answer.items);
        if (page >= answer.controls.last_page) return all;
      }
    },
  });
}
