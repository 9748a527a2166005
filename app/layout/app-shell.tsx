import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLoaderData, useLocation, useMatches, useNavigation } from 'react-router';
import { useLang } from '../features/auth/use-lang.ts';
import type { RootData, RouteHandle } from '../router.tsx';
import type { HeaderType } from '../routes/route-meta.ts';
import type { RouteName } from '../routes/route-table.ts';
import { useSession } from '../session/session-store.ts';
import { Toaster } from '../ui/toast.tsx';
import { contentSize, isMobile, sidePanelBreakpoint } from './breakpoints.ts';
import { AppHeader, LandingHeader, MOBILE_MENU_ID, PlainHeader } from './headers.tsx';
import { Icon } from './icon.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { LazyConfirmHost } from './lazy-confirm-host.tsx';
import { LazyRealtime } from './lazy-realtime.tsx';
import { LogoLink } from './logo-link.tsx';
import { LogoutOverlay } from './logout-overlay.tsx';
import { MenuList } from './menu-list.tsx';
import { SessionSignals } from './session-signals.tsx';
import { SiteFooter } from './site-footer.tsx';
import { LANDING_NAV, useSiteLinks } from './site-links.ts';
import { SubscriptionUnavailable } from './subscription-unavailable.tsx';
import { useViewportWidth } from './use-viewport-width.ts';

function useCurrentRoute(): { name: RouteName; header: HeaderType } {
  const matches = useMatches();
  const handle = matches.at(-1)?.handle as RouteHandle | undefined;
  return handle
    ? { name: handle.route.name, header: handle.route.header }
    : { name: 'page-not-found', header: 'landing' };
}

/** §2 Page shell: aside menu, one of three headers, footer, overlays. */
export function AppShell() {
  const { t } = useTranslation();
  const { name, header } = useCurrentRoute();
  const location = useLocation();
  const navigation = useNavigation();
  const data = useLoaderData() as RootData | null;
  const width = useViewportWidth();
  const mobile = isMobile(width);
  const role = useSession((session) => session.user?.role);
  const [menuOpen, setMenuOpen] = useState(false);
  const links = useSiteLinks(useLang());
  const [asideOpen, setAsideOpen] = useState<boolean | null>(null);
  const withAside = header === 'app' && role !== undefined;
  const asideExpanded = asideOpen ?? (role ? width >= sidePanelBreakpoint(role) : true);

  // §2 the mobile menu resets when the breakpoint changes, and closes on navigation.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on these changes only
  useEffect(() => setMenuOpen(false), [mobile, location.pathname]);

  const headerProps = {
    routeName: name,
    mobile,
    menuOpen,
    onToggleMenu: () => setMenuOpen((open) => !open),
  };
  const size = contentSize(width, withAside && !mobile ? asideExpanded : null);

  return (
    <div className="flex min-h-screen bg-slate-50" data-size={size} data-mobile={mobile}>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        {t('layout.skip_to_content')}
      </a>
      {withAside && !mobile && (
        <aside
          className={`sticky top-0 flex h-screen shrink-0 flex-col border-r border-slate-200 bg-white transition-[width] duration-[400ms] ${asideExpanded ? 'w-64' : 'w-16'}`}
          data-testid="aside"
          aria-label={t('layout.aside')}
        >
          <div className="flex h-16 items-center justify-between px-3">
            {asideExpanded && <LogoLink />}
            <button
              type="button"
              className="rounded-lg p-2 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-500"
              aria-expanded={asideExpanded}
              aria-label={t(asideExpanded ? 'layout.collapse_menu' : 'layout.expand_menu')}
              onClick={() => setAsideOpen(!asideExpanded)}
            >
              <Icon name="menu" />
            </button>
          </div>
          <nav className="flex-1 overflow-y-auto px-2 pb-4" aria-label={t('layout.menu')}>
            <MenuList current={name} collapsed={!asideExpanded} />
          </nav>
        </aside>
      )}
      <div className="flex min-w-0 flex-1 flex-col">
        {header === 'landing' && <LandingHeader {...headerProps} />}
        {header === 'plain' && <PlainHeader {...headerProps} />}
        {header === 'app' && <AppHeader {...headerProps} />}
        {mobile && menuOpen && (
          <nav
            id={MOBILE_MENU_ID}
            className="border-b border-slate-200 bg-white px-4 py-3"
            aria-label={t('layout.menu')}
            data-testid="mobile-menu"
          >
            <div className="mb-3">
              <LanguageSwitch />
            </div>
            {role ? (
              <MenuList current={name} onNavigate={() => setMenuOpen(false)} />
            ) : (
              <ul className="flex flex-col gap-1">
                {LANDING_NAV.map((link) => (
                  <li key={link}>
                    <Link
                      to={links[link]}
                      className="block rounded-lg px-3 py-2 text-slate-700 hover:bg-slate-100"
                    >
                      {t(`site.${link}`)}
                    </Link>
                  </li>
                ))}
                <li>
                  <Link
                    to={links.help_center}
                    className="block rounded-lg px-3 py-2 text-slate-700 hover:bg-slate-100"
                  >
                    {t('site.help_center')}
                  </Link>
                </li>
              </ul>
            )}
          </nav>
        )}
        <main
          id="main"
          className="flex-1"
          aria-busy={navigation.state === 'loading'}
          data-route={name}
        >
          {data?.unavailable === 'subscription' ? <SubscriptionUnavailable /> : <Outlet />}
        </main>
        <SiteFooter compact={header === 'app'} />
      </div>
      <LogoutOverlay />
      <SessionSignals />
      <LazyRealtime />
      <Toaster />
      <LazyConfirmHost />
    </div>
  );
}
