import { z } from 'zod';

// §3 List responses carry `items` and `controls` (paging). Every list endpoint takes the
// same paging query and answers through `listResponse(item)`.
export const MAX_PER_PAGE = 100;

export const pagingQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).default(20),
});
export type PagingQuery = z.infer<typeof pagingQuery>;

export const listControls = z
  .object({
    page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    last_page: z.number().int(),
  })
  .meta({ id: 'ListControls' });
export type ListControls = z.infer<typeof listControls>;

export function listResponse<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), controls: listControls });
}

export function pagingControls(paging: PagingQuery, total: number): ListControls {
  return {
    page: paging.page,
    per_page: paging.per_page,
    total,
    last_page: Math.max(1, Math.ceil(total / paging.per_page)),
  };
}

/** The rows a page holds: how many to skip and how many to take (SQL offset and limit). */
export function pageWindow(paging: PagingQuery): { offset: number; limit: number } {
  return { offset: (paging.page - 1) * paging.per_page, limit: paging.per_page };
}

/** One page of a list answer: its items and the controls for `total` items in all. */
export function listPage<T>(
  items: T[],
  paging: PagingQuery,
  total: number,
): { items: T[]; controls: ListControls } {
  return { items, controls: pagingControls(paging, total) };
}

/** A page of a list held whole in memory (a handful of items, such as the providers). */
export function pageOf<T>(all: readonly T[], paging: PagingQuery) {
  const { offset, limit } = pageWindow(paging);
  return listPage(all.slice(offset, offset + limit), paging, all.length);
}

/** A yes/no filter of a list's query string: `true` or `false`; absent means either. */
export const booleanFilter = z
  .enum(['true', 'false'], { error: 'input_errors.field_is_invalid' })
  .transform((value) => value === 'true')
  .optional();

/** A list's free-text search. */
export const searchFilter = z.string().trim().max(255).optional();

/** Sorting of a list: one of `fields`, ascending or descending. */
export function sortQuery<const F extends readonly [string, ...string[]]>(
  fields: F,
  by: F[number],
  direction: 'asc' | 'desc' = 'desc',
) {
  return z.object({
    sort: z.enum(fields, { error: 'input_errors.field_is_invalid' }).default(by),
    direction: z
      .enum(['asc', 'desc'], { error: 'input_errors.field_is_invalid' })
      .default(direction),
  });
}
