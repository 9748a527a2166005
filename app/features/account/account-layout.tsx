import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { QueryProvider } from '../../api/query-provider.tsx';
import { RouteLink } from '../../layout/route-link.tsx';
import type { RouteHandle } from '../../router.tsx';
import { useAccount } from './use-account.ts';

const TABS = [
  ['profile', 'settings.tabs.profile'],
  ['security', 'settings.tabs.security'],
  ['notifications', 'settings.tabs.notifications'],
] as const;

/** §2 /account and /admin/account: one title, a tab per child (profile, security, notifications). */
export function AccountLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { routes } = useAccount();
  const current = (useMatches().at(-1)?.handle as RouteHandle | undefined)?.route.name;
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">
        {t('settings.title')}
      </h1>
      <nav aria-label={t('settings.tabs.label')} className="mt-6 border-b border-slate-200">
        <ul className="-mb-px flex gap-6 overflow-x-auto">
          {TABS.map(([tab, label]) => {
            const name = routes[tab];
            const active = current === name;
            return (
              <li key={tab}>
                <RouteLink
                  name={name}
                  aria-current={active ? 'page' : undefined}
                  className={`inline-block border-b-2 px-1 pb-3 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-brand-500 ${active ? 'border-brand-500 text-brand-700' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900'}`}
                >
                  {t(label)}
                </RouteLink>
              </li>
            );
          })}
        </ul>
      </nav>
      <QueryProvider>
        <div className="mt-6 flex flex-col gap-6">{children}</div>
      </QueryProvider>
    </div>
  );
}
