import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useRoutePath } from '../../../layout/route-link.tsx';

/** The fleet's three screens, as tabs: by country, servers grouped by country, every server. */
export function ServersTabs() {
  const { t } = useTranslation();
  const tabs = [
    { to: useRoutePath('admin.servers.countries'), label: t('staff_servers.tabs.countries') },
    { to: useRoutePath('admin.servers.servers-list'), label: t('staff_servers.tabs.servers_list') },
    { to: useRoutePath('admin.servers.all-servers'), label: t('staff_servers.tabs.all_servers') },
  ];
  return (
    <nav aria-label={t('staff_servers.tabs.label')} className="border-b border-slate-200">
      <ul className="-mb-px flex flex-wrap gap-x-4">
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink
              to={tab.to}
              end
              className={({ isActive }) =>
                `inline-flex border-b-2 px-1 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-500 ${
                  isActive
                    ? 'border-brand-500 text-brand-700'
                    : 'border-transparent text-slate-600 hover:text-slate-900'
                }`
              }
            >
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
