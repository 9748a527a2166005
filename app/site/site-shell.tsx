import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCALES } from '#shared/locales.ts';
import { SITE_LINKS, SITE_NAV, type SiteLink } from '#shared/site/site-links.ts';
import { LOGO_CLASS, LogoMark } from '../layout/logo-mark.tsx';
import { Island } from './island.tsx';
import { useSite } from './site-context.ts';

const LABEL: Record<SiteLink, string> = {
  pricing: 'site.pricing',
  features: 'site.features',
  servers: 'site.servers',
  download: 'site.download',
  blog: 'site.blog',
  what_is_vpn: 'site.what_is_vpn',
  help_center: 'site.help_center',
  terms: 'site.terms',
  privacy: 'site.privacy',
};

function Logo() {
  const { lang } = useSite();
  return (
    <a href={`/${lang}`} className={LOGO_CLASS}>
      <LogoMark />
    </a>
  );
}

/** The page in another language: its own translation where it has one, else that home. */
function LanguageLinks() {
  const { t } = useTranslation();
  const page = useSite();
  const hrefOf = (lang: string) => {
    const own = page.head.alternates.find((entry) => entry.hreflang === lang);
    return own ? new URL(own.href).pathname : `/${lang}`;
  };
  const current = LOCALES.find((locale) => locale.lang === page.lang);
  return (
    <details className="relative">
      <summary
        className="flex min-h-10 cursor-pointer list-none items-center gap-1 rounded-lg px-2 text-sm text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-500"
        aria-label={t('public_site.languages')}
      >
        <span aria-hidden="true">{current?.flag}</span>
        <span>{current?.name}</span>
      </summary>
      <ul className="absolute right-0 z-20 mt-1 w-44 rounded-lg border border-slate-200 bg-white py-1 shadow-lg">
        {LOCALES.filter((locale) => page.langs.includes(locale.lang)).map((locale) => (
          <li key={locale.lang}>
            <a
              href={hrefOf(locale.lang)}
              hrefLang={locale.lang}
              lang={locale.lang}
              aria-current={locale.lang === page.lang ? 'true' : undefined}
              className="flex items-center gap-2 px-3 py-2 text-sm text-slate-700 hover:bg-slate-100"
            >
              <span aria-hidden="true">{locale.flag}</span>
              {locale.name}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}

function SiteHeader() {
  const { t } = useTranslation();
  const { lang, links } = useSite();
  const nav = (
    <ul className="flex flex-col gap-1 lg:flex-row lg:items-center lg:gap-6">
      {SITE_NAV.map((link) => (
        <li key={link}>
          <a
            href={links[link]}
            className="block rounded-lg px-3 py-2 text-sm text-slate-700 hover:bg-slate-100 hover:text-slate-900 lg:p-0 lg:hover:bg-transparent"
          >
            {t(LABEL[link])}
          </a>
        </li>
      ))}
    </ul>
  );
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-6 px-4 sm:px-6">
        <Logo />
        <nav aria-label={t('layout.main_nav')} className="hidden flex-1 lg:block">
          {nav}
        </nav>
        <div className="ml-auto flex items-center gap-3">
          <LanguageLinks />
          <Island name="account-link" props={{ lang }} />
          <a
            href={`/${lang}/order-v2`}
            data-testid="get-button"
            className="hidden whitespace-nowrap rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 sm:inline-block"
          >
            {t('layout.get')}
          </a>
          <details className="lg:hidden">
            <summary
              className="flex size-10 cursor-pointer list-none items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-500"
              aria-label={t('layout.open_menu')}
            >
              <svg viewBox="0 0 24 24" className="size-6" aria-hidden="true" focusable="false">
                <path fill="currentColor" d="M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z" />
              </svg>
            </summary>
            <nav
              aria-label={t('layout.menu')}
              className="absolute inset-x-0 top-16 z-20 border-b border-slate-200 bg-white px-4 py-3 shadow"
            >
              {nav}
            </nav>
          </details>
        </div>
      </div>
    </header>
  );
}

function SiteFooter() {
  const { t } = useTranslation();
  const { links } = useSite();
  return (
    <footer className="below-fold border-t border-slate-200 bg-white" data-testid="site-footer">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-6 py-8 text-sm text-slate-600">
        <nav aria-label={t('layout.footer_nav')}>
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            {SITE_LINKS.map((link) => (
              <li key={link}>
                <a href={links[link]} className="hover:text-slate-900">
                  {t(LABEL[link])}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <p>{t('footer.rights')}</p>
      </div>
    </footer>
  );
}

/** The public site's frame: header, the page, footer; and the note on a page shown in English. */
export function SiteShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const page = useSite();
  const language = LOCALES.find((locale) => locale.lang === page.lang)?.name ?? page.lang;
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        {t('layout.skip_to_content')}
      </a>
      <SiteHeader />
      <main id="main" className="flex-1" data-site-page={page.body.kind}>
        {page.fallback_from && (
          <p
            className="mx-auto mt-6 max-w-3xl rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
            role="note"
            data-testid="fallback-notice"
          >
            {t('public_site.fallback_notice', { language })}
          </p>
        )}
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
