import { describe, expect, it } from 'vitest';
import { listPage, pageOf, pageWindow, pagingControls, pagingQuery } from './list.ts';

describe('paging arithmetic (§3 list controls)', () => {
  it.each([
    [{ page: 1, per_page: 20 }, 0, { offset: 0, limit: 20 }, 1],
    [{ page: 1, per_page: 20 }, 20, { offset: 0, limit: 20 }, 1],
    [{ page: 2, per_page: 20 }, 21, { offset: 20, limit: 20 }, 2],
    [{ page: 3, per_page: 7 }, 50, { offset: 14, limit: 7 }, 8],
    [{ page: 9, per_page: 100 }, 5, { offset: 800, limit: 100 }, 1],
  ])('%j of %i items: window %j, last page %i', (paging, total, window, lastPage) => {
    expect(pageWindow(paging)).toEqual(window);
    expect(pagingControls(paging, total)).toEqual({ ...paging, total, last_page: lastPage });
  });

  it('slices a list held in memory', () => {
    const letters = ['a', 'b', 'c', 'd', 'e'];
    expect(pageOf(letters, { page: 2, per_page: 2 })).toEqual({
      items: ['c', 'd'],
      controls: { page: 2, per_page: 2, total: 5, last_page: 3 },
    });
    expect(pageOf(letters, { page: 4, per_page: 2 }).items).toEqual([]);
    expect(listPage(['x'], { page: 1, per_page: 1 }, 9).controls.last_page).toBe(9);
  });

  it('reads the query with defaults and bounds', () => {
    expect(pagingQuery.parse({})).toEqual({ page: 1, per_page: 20 });
    expect(pagingQuery.parse({ page: '3', per_page: '100' })).toEqual({ page: 3, per_page: 100 });
    for (const bad of [{ page: '0' }, { per_page: '101' }, { per_page: '1.5' }, { page: 'x' }]) {
      expect(pagingQuery.safeParse(bad).success).toBe(false);
    }
  });
});
