import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLang } from '../features/auth/use-lang.ts';
import { FOOTER_LINKS, useSiteLinks } from './site-links.ts';

/** §1/§2 footer: the site's pages and "all rights reserved" for 2024. */
export function SiteFooter({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const links = useSiteLinks(useLang());
  return (
    <footer className="border-t border-slate-200 bg-white" data-testid="site-footer">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-6 py-6 text-sm text-slate-500">
        {!compact && (
          <nav aria-label={t('layout.footer_nav')}>
            <ul className="flex flex-wrap gap-x-6 gap-y-2">
              {FOOTER_LINKS.map((link) => (
                <li key={link}>
                  <Link to={links[link]} className="hover:text-slate-900">
                    {t(`site.${link}`)}
                  </Link>
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
