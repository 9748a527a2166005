import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLang } from '../features/auth/use-lang.ts';
import type { RouteName } from '../routes/route-table.ts';
import { useSession } from '../session/session-store.ts';
import { AvatarMenu } from './avatar-menu.tsx';
import { Icon } from './icon.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { LogoLink } from './logo-link.tsx';
import { RouteLink } from './route-link.tsx';
import { LANDING_NAV, useSiteLinks } from './site-links.ts';

interface HeaderProps {
  routeName: RouteName;
  mobile: boolean;
  menuOpen: boolean;
  onToggleMenu: () => void;
}

export function Burger({
  open,
  onToggle,
  controls,
}: {
  open: boolean;
  onToggle: () => void;
  controls: string;
}) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="rounded-lg p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-500"
      aria-expanded={open}
      aria-controls={controls}
      aria-label={t(open ? 'layout.close_menu' : 'layout.open_menu')}
      data-testid="burger"
      onClick={onToggle}
    >
      <Icon name={open ? 'close' : 'menu'} className="size-6" />
    </button>
  );
}

/** Signed-out visitors: Help center on desktop and Log In (hidden on the sign-in page). */
function VisitorLinks({ routeName, mobile }: { routeName: RouteName; mobile: boolean }) {
  const { t } = useTranslation();
  const links = useSiteLinks(useLang());
  return (
    <>
      {!mobile && (
        <Link to={links.help_center} className="text-sm text-slate-600 hover:text-slate-900">
          {t('site.help_center')}
        </Link>
      )}
      {routeName !== 'signin' && (
        <RouteLink
          name="signin"
          className="whitespace-nowrap text-sm font-medium text-brand-600 hover:text-brand-700"
          data-testid="login-link"
        >
          {t('layout.log_in')}
        </RouteLink>
      )}
    </>
  );
}

function Account({ routeName, mobile }: { routeName: RouteName; mobile: boolean }) {
  const user = useSession((session) => session.user);
  return user ? (
    <AvatarMenu user={user} compact={mobile} />
  ) : (
    <VisitorLinks routeName={routeName} mobile={mobile} />
  );
}

export const MOBILE_MENU_ID = 'mobile-menu';

/** Landing header: logo, up to six site links, the 'Get' button, language and account. */
export function LandingHeader({ routeName, mobile, menuOpen, onToggleMenu }: HeaderProps) {
  const { t } = useTranslation();
  const links = useSiteLinks(useLang());
  return (
    <header className="border-b border-slate-200 bg-white" data-header="landing">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-6 px-4 sm:px-6">
        <LogoLink />
        {!mobile && (
          <nav aria-label={t('layout.main_nav')} className="flex-1">
            <ul className="flex gap-5">
              {LANDING_NAV.map((link) => (
                <li key={link}>
                  <Link to={links[link]} className="text-sm text-slate-600 hover:text-slate-900">
                    {t(`site.${link}`)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <div className="ml-auto flex items-center gap-3 sm:gap-4">
          {!mobile && <LanguageSwitch />}
          <Account routeName={routeName} mobile={mobile} />
          <RouteLink
            name="order2"
            className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
            data-testid="get-button"
          >
            {t('layout.get')}
          </RouteLink>
          {mobile && <Burger open={menuOpen} onToggle={onToggleMenu} controls={MOBILE_MENU_ID} />}
        </div>
      </div>
    </header>
  );
}

/** Plain header: for sign-in, sign-up and the other single-purpose pages. */
export function PlainHeader({ routeName, mobile }: HeaderProps) {
  return (
    <header className="bg-white" data-header="plain">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6">
        <LogoLink />
        <div className="ml-auto flex items-center gap-3 sm:gap-4">
          <LanguageSwitch />
          <Account routeName={routeName} mobile={mobile} />
        </div>
      </div>
    </header>
  );
}

/** User/admin header: burger on mobile, language and the avatar menu. */
export function AppHeader({ routeName, mobile, menuOpen, onToggleMenu }: HeaderProps) {
  const { t } = useTranslation();
  const links = useSiteLinks(useLang());
  return (
    <header className="border-b border-slate-200 bg-white" data-header="app">
      <div className="flex h-16 items-center gap-4 px-4 sm:px-6">
        {mobile && <Burger open={menuOpen} onToggle={onToggleMenu} controls={MOBILE_MENU_ID} />}
        {mobile && <LogoLink />}
        <div className="ml-auto flex items-center gap-3 sm:gap-4">
          {!mobile && (
            <Link to={links.help_center} className="text-sm text-slate-600 hover:text-slate-900">
              {t('site.help_center')}
            </Link>
          )}
          {!mobile && <LanguageSwitch />}
          <Account routeName={routeName} mobile={mobile} />
        </div>
      </div>
    </header>
  );
}
