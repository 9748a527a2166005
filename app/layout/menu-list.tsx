import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isStaff } from '#shared/roles.ts';
import { useAppConfig } from '../lib/app-config-context.ts';
import type { RouteName } from '../routes/route-table.ts';
import { ensureSubscription } from '../session/current-subscription.ts';
import { useSession } from '../session/session-store.ts';
import { Icon } from './icon.tsx';
import { adminMenu, isCurrent, type MenuItem, userMenu } from './menus.ts';
import { RouteLink } from './route-link.tsx';

/** The signed-in user's menu: the admin menu for staff, the user menu for customers. */
export function useMenu(): MenuItem[] {
  const config = useAppConfig();
  const role = useSession((session) => session.user?.role);
  const hasSubscription = useSession((session) => Boolean(session.subscription?.current));
  // §2 billing points at membership or the order page by the subscription, which only some
  // routes load before they open: the customer's menu asks for it itself.
  useEffect(() => {
    if (role === 'USER') {
      ensureSubscription().catch((error: unknown) =>
        console.warn('subscription unavailable', error),
      );
    }
  }, [role]);
  if (!role) return [];
  return isStaff(role)
    ? adminMenu(role, config.features)
    : userMenu({ features: config.features, hasSubscription });
}

interface Props {
  current: RouteName;
  collapsed?: boolean;
  onNavigate?: () => void;
}

export function MenuList({ current, collapsed = false, onNavigate }: Props) {
  const { t } = useTranslation();
  const menu = useMenu();
  return (
    <ul className="flex flex-col gap-0.5" data-testid="menu">
      {menu
        .filter((entry) => !entry.hidden)
        .map((entry) => {
          const active = isCurrent(entry, current);
          return (
            <li key={entry.label}>
              <RouteLink
                name={entry.route}
                aria-current={active ? 'page' : undefined}
                title={collapsed ? t(entry.label) : undefined}
                onClick={onNavigate}
                className={`flex items-center gap-3 rounded-lg px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-500 ${
                  active
                    ? 'bg-brand-50 font-semibold text-brand-700'
                    : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'
                }`}
              >
                <Icon name={entry.icon} className="size-5 shrink-0" />
                <span className={collapsed ? 'sr-only' : ''}>{t(entry.label)}</span>
              </RouteLink>
            </li>
          );
        })}
    </ul>
  );
}
