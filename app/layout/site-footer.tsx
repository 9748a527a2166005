import { useTranslation } from 'react-i18next';
import { RouteLink } from './route-link.tsx';
import { FOOTER_LINKS, PUBLIC_LINK_TARGET } from './site-links.ts';

/** §1/§2 footer: the public links and "all rights reserved" for 2024. */
export function SiteFooter({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <footer className="border-t border-slate-200 bg-white" data-testid="site-footer">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-6 py-6 text-sm text-slate-500">
        {!compact && (
          <nav aria-label={t('layout.footer_nav')}>
            <ul className="flex flex-wrap gap-x-6 gap-y-2">
              {FOOTER_LINKS.map((link) => (
                <li key={link}>
                  <RouteLink name={PUBLIC_LINK_TARGET} className="hover:text-slate-900">
                    {t(`site.${link}`)}
                  </RouteLink>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <p>{t('footer.rights')}</p>
      </div>
    </footer>
  );
}
