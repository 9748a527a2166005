import { describe, expect, it } from 'vitest';
import { RESERVED_PAGE_SLUGS } from '#shared/content/reserved-slugs.ts';
import { ROUTES } from './route-table.ts';

describe('the route table', () => {
  // Pages live at `/{lang}/{slug}` (issue 22): the server refuses a page address that a
  // screen already answers, from its own list; a new screen must join that list.
  it('reserves the first segment of every screen against page addresses', () => {
    const firsts = new Set(ROUTES.map((route) => route.path.split('/')[0] ?? ''));
    firsts.delete('');
    expect([...firsts].filter((segment) => !RESERVED_PAGE_SLUGS.has(segment))).toEqual([]);
  });
});
