import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  articleEndpoints,
  type ContentCategory,
  type ContentListItem,
} from '#shared/contracts/admin/content.ts';
import { MAX_PER_PAGE } from '#shared/contracts/list.ts';
import { ApiError, isApiError } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';

/** Under the articles list's key, so a saved order refreshes the articles overview too. */
const articlesKey = ['admin', articleEndpoints.list.url];
const orderKey = (categoryId: number) => [...articlesKey, 'order', categoryId];

/** Shown when the articles of a category changed while staff arranged them. */
const CHANGED_MEANWHILE = 'staff_categories.articles.changed_meanwhile';

/** The saved articles in the arranged order; any the arrangement lacks (new ones) come last. */
function arranged(
  saved: readonly ContentListItem[],
  edit: readonly number[] | undefined,
): ContentListItem[] {
  if (!edit) return [...saved];
  const byId = new Map(saved.map((article) => [article.id, article]));
  return [
    ...edit.flatMap((id) => byId.get(id) ?? []),
    ...saved.filter((article) => !edit.includes(article.id)),
  ];
}

const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id, index) => id === b[index]);

function moveId(ids: readonly number[], id: number, to: number): number[] {
  const rest = ids.filter((other) => other !== id);
  return [...rest.slice(0, to), id, ...rest.slice(to)];
}

/**
 * §2 help-center sorting, the articles of one category in staff's order (what the public
 * help center shows): the category chosen (at first the first one with articles), its
 * articles as saved, read whole by position, and the orders arranged but not saved yet, of
 * any number of categories, each saved whole through `POST /help-center/sort`.
 */
export function useArticleOrder(categories: readonly ContentCategory[]) {
  const queryClient = useQueryClient();
  const [picked, setPicked] = useState<number | null>(null);
  // Each arranged category's article ids, in the new order.
  const [edits, setEdits] = useState<Record<number, number[]>>({});
  const category =
    categories.find((candidate) => candidate.category_id === picked) ??
    categories.find((candidate) => candidate.items_count > 0) ??
    categories[0];
  const categoryId = category?.category_id ?? 0;

  const saved = useQuery({
    queryKey: orderKey(categoryId),
    enabled: category !== undefined,
    queryFn: async ({ signal }) => {
      const all: ContentListItem[] = [];
      for (let page = 1; ; page += 1) {
        const answer = await call(
          articleEndpoints.list,
          {
            query: {
              category_id: categoryId,
              sort: 'position',
              direction: 'asc',
              page,
              per_page: MAX_PER_PAGE,
            },
          },
          { signal },
        );
        all.push(...answer.items);
        if (page >= answer.controls.last_page) return all;
      }
    },
  });
  const savedItems = saved.data ?? [];
  const items = arranged(savedItems, edits[categoryId]);

  const drop = (id: number) =>
    setEdits((current) => {
      const { [id]: _dropped, ...rest } = current;
      return rest;
    });

  const move = (id: number, to: number) =>
    setEdits((current) => {
      const next = moveId(
        arranged(savedItems, current[categoryId]).map((article) => article.id),
        id,
        to,
      );
      const { [categoryId]: _before, ...rest } = current;
      const savedIds = savedItems.map((article) => article.id);
      // Back where it was saved: nothing of this category is left to save.
      return sameIds(next, savedIds) ? rest : { ...rest, [categoryId]: next };
    });

  /** Saves each arranged category; the first failure stops and is thrown. */
  const save = async () => {
    for (const [key, ids] of Object.entries(edits)) {
      const id = Number(key);
      try {
        await call(articleEndpoints.sort, { body: { category_id: id, ids } });
      } catch (error) {
        void queryClient.invalidateQueries({ queryKey: articlesKey });
        // The server takes only every article of the category, once: one was added,
        // moved or deleted meanwhile, so this arrangement no longer holds.
        if (!isApiError(error) || !error.validation.ids) throw error;
        drop(id);
        throw new ApiError(error.status, error.code, { info: [CHANGED_MEANWHILE] });
      }
      // Read again before the arrangement goes, so the list does not flash the old order;
      // a category not on screen is read again too, for when it is chosen.
      await queryClient.invalidateQueries({ queryKey: orderKey(id), refetchType: 'all' });
      drop(id);
    }
    void queryClient.invalidateQueries({ queryKey: articlesKey });
  };

  return {
    /** The category whose articles are shown (none while the tree is empty). */
    category,
    choose: (id: number) => setPicked(id),
    saved,
    /** The chosen category's articles, in the order arranged. */
    items,
    move,
    dirty: Object.keys(edits).length > 0,
    save,
    discard: () => setEdits({}),
  };
}

export type ArticleOrder = ReturnType<typeof useArticleOrder>;
