import type { SitePage as Page } from '#shared/contracts/site.ts';
import { BlogPage, PostPage } from './pages/blog-pages.tsx';
import {
  DownloadPage,
  FaqPage,
  NotFoundPage,
  PricingPage,
  ServersPage,
  TextPage,
} from './pages/catalog-pages.tsx';
import { ArticlePage, HelpCategoryPage, HelpPage } from './pages/help-pages.tsx';
import { HomePage } from './pages/home-page.tsx';
import { SiteContext } from './site-context.ts';
import { SiteShell } from './site-shell.tsx';

/** The page's own part, without the site's frame (the app shows it in its own). */
export function SiteBody({ page }: { page: Page }) {
  const { body } = page;
  switch (body.kind) {
    case 'home':
      return <HomePage body={body} />;
    case 'pricing':
      return <PricingPage body={body} />;
    case 'servers':
      return <ServersPage body={body} />;
    case 'download':
      return <DownloadPage body={body} />;
    case 'page':
      return <TextPage body={body} />;
    case 'blog':
      return <BlogPage body={body} />;
    case 'post':
      return <PostPage body={body} />;
    case 'help':
      return <HelpPage body={body} />;
    case 'help_category':
      return <HelpCategoryPage body={body} />;
    case 'article':
      return <ArticlePage body={body} />;
    case 'faq':
      return <FaqPage body={body} />;
    case 'not_found':
      return <NotFoundPage />;
  }
}

/** A public page, whole: the same tree is rendered on the server and hydrated in the browser. */
export function SitePage({ page }: { page: Page }) {
  return (
    <SiteContext value={page}>
      <SiteShell>
        <SiteBody page={page} />
      </SiteShell>
    </SiteContext>
  );
}
