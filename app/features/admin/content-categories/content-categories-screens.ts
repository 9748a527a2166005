// The content category screens (app/features/admin/content-categories/): one chunk.
export { CategoryListPages } from './category-list-pages.tsx';
export { CategorySortingPage } from './category-sorting-page.tsx';
