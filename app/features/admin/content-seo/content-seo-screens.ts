// The staff SEO screens and the FAQ placement (app/features/admin/content-seo/): one chunk.
export { FaqPlacementPage } from './faq-placement-page.tsx';
export { MainPagesPage } from './main-pages-page.tsx';
export { SeoListPages } from './seo-list-page.tsx';
