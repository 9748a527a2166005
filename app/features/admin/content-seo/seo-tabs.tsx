import { useTranslation } from 'react-i18next';
import { useRoutePath } from '../../../layout/route-link.tsx';
import { PageTabs } from '../kit/page-tabs.tsx';

/** The four SEO screens as tabs: main pages, categories, posts, articles. */
export function SeoTabs() {
  const { t } = useTranslation();
  const tabs = [
    { to: useRoutePath('admin.seo.main-pages'), label: t('staff_seo.tabs.main_pages') },
    { to: useRoutePath('admin.seo.categories'), label: t('staff_seo.tabs.categories') },
    { to: useRoutePath('admin.seo.posts'), label: t('staff_seo.tabs.posts') },
    { to: useRoutePath('admin.seo.articles'), label: t('staff_seo.tabs.articles') },
  ];
  return <PageTabs label={t('staff_seo.tabs.label')} tabs={tabs} />;
}
