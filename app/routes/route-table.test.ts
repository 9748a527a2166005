import { generatePath } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RESERVED_PAGE_SLUGS } from '#shared/content/reserved-slugs.ts';
import { siteAddress } from '#shared/site/site-address.ts';
import { ROUTES } from './route-table.ts';

/** The routes whose screen is the public site's page (issue 23). */
const SITE_ROUTES = ['home', 'page', 'blog', 'blog.more', 'help-center', 'help-center.more', 'faq'];

describe('the route table', () => {
  // Pages live at `/{lang}/{slug}` (issue 22): the server refuses a page address that a
  // screen already answers, from its own list; a new screen must join that list.
  it('reserves the first segment of every screen against page addresses', () => {
    const firsts = new Set(ROUTES.map((route) => route.path.split('/')[0] ?? ''));
    firsts.delete('');
    firsts.delete(':slug');
    expect([...firsts].filter((segment) => !RESERVED_PAGE_SLUGS.has(segment))).toEqual([]);
  });

  // The server renders the site's addresses and leaves the rest to the app: both read the
  // same rule (shared/site/site-address.ts), and no screen of the app falls under it.
  it("agrees with the server on which addresses are the site's", () => {
    for (const route of ROUTES) {
      const path = generatePath(`/en/${route.path}`.replace(/\/$/, ''), {
        '*': 'some-post',
        slug: 'some-page',
        id: '7',
        product_id: '7',
        coupon_id: '7',
        country_code: 'nl',
        subscriberUuid: 'x',
        uid: 'x',
      });
      const isSite = siteAddress(path, new URLSearchParams(), ['en']) !== null;
      expect(isSite, `${route.name} ${path}`).toBe(SITE_ROUTES.includes(route.name));
    }
  });
});
