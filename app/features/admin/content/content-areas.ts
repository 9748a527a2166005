import {
  articleEndpoints,
  blogCategoryEndpoints,
  type ContentItemEndpoints,
  type ContentListEndpoint,
  faqEndpoints,
  helpCategoryEndpoints,
  pageEndpoints,
  postEndpoints,
} from '#shared/contracts/admin/content.ts';
import type { RouteName } from '../../../routes/route-table.ts';

/** The §2 content sections staff write in, as their screens name them. */
export type ContentAreaName = 'posts' | 'articles' | 'pages' | 'static_pages' | 'faq';

export interface ContentArea {
  name: ContentAreaName;
  /** The area's item calls (static pages are pages: the same calls). */
  endpoints: ContentItemEndpoints;
  list: ContentListEndpoint | (typeof pageEndpoints)['list'];
  /** The list's fixed query (pages or static pages). */
  fixed?: Record<string, string>;
  overview: RouteName;
  create?: RouteName;
  edit: RouteName;
  /** The category tree its items are filed in. */
  categories?: typeof blogCategoryEndpoints.list | typeof helpCategoryEndpoints.list;
  /** Where an item of the area is on the public site (shared/content/public-paths.ts). */
  kind: 'post' | 'article' | 'page' | 'static_page' | 'faq';
}

export const CONTENT_AREAS: Record<ContentAreaName, ContentArea> = {
  posts: {
    name: 'posts',
    endpoints: postEndpoints,
    list: postEndpoints.list,
    overview: 'admin.blog.posts.overview',
    create: 'admin.blog.posts.create',
    edit: 'admin.blog.posts.edit',
    categories: blogCategoryEndpoints.list,
    kind: 'post',
  },
  articles: {
    name: 'articles',
    endpoints: articleEndpoints,
    list: articleEndpoints.list,
    overview: 'admin.help-center.articles.overview',
    create: 'admin.help-center.articles.create',
    edit: 'admin.help-center.articles.edit',
    categories: helpCategoryEndpoints.list,
    kind: 'article',
  },
  pages: {
    name: 'pages',
    endpoints: pageEndpoints,
    list: pageEndpoints.list,
    fixed: { type: 'page' },
    overview: 'admin.pages.overview',
    create: 'admin.pages.create',
    edit: 'admin.pages.edit',
    kind: 'page',
  },
  static_pages: {
    name: 'static_pages',
    endpoints: pageEndpoints,
    list: pageEndpoints.list,
    fixed: { type: 'static_page' },
    overview: 'admin.staticPages.overview',
    edit: 'admin.staticPages.edit',
    kind: 'static_page',
  },
  faq: {
    name: 'faq',
    endpoints: faqEndpoints,
    list: faqEndpoints.list,
    overview: 'admin.faq.list.overview',
    create: 'admin.faq.list.create',
    edit: 'admin.faq.list.edit',
    kind: 'faq',
  },
};
