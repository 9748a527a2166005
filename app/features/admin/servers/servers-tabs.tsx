import { useTranslation } from 'react-i18next';
import { useRoutePath } from '../../../layout/route-link.tsx';
import { PageTabs } from '../kit/page-tabs.tsx';

/** The fleet's three screens, as tabs: by country, servers grouped by country, every server. */
export function ServersTabs() {
  const { t } = useTranslation();
  const tabs = [
    { to: useRoutePath('admin.servers.countries'), label: t('staff_servers.tabs.countries') },
    { to: useRoutePath('admin.servers.servers-list'), label: t('staff_servers.tabs.servers_list') },
    { to: useRoutePath('admin.servers.all-servers'), label: t('staff_servers.tabs.all_servers') },
  ];
  return <PageTabs label={t('staff_servers.tabs.label')} tabs={tabs} />;
}
