import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { type Lang, LOCALES } from '#shared/locales.ts';
import { changeLanguage } from '../../i18n/i18n.ts';
import { useAppConfig } from '../../lib/app-config-context.ts';
import { withLocale } from '../../lib/locale-path.ts';

export function PublicLayout() {
  const { t } = useTranslation();
  const config = useAppConfig();
  const { lang } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const locales = LOCALES.filter((locale) => config.locales.includes(locale.lang));

  const switchLanguage = async (next: Lang) => {
    try {
      await changeLanguage(next);
      navigate(withLocale(location.pathname, next) + location.search);
    } catch (error) {
      console.error('Language change failed', error);
    }
  };

  return (
    <div className="flex min-h-screen flex-col bg-white">
      <header className="border-b border-slate-200">
        <div className="mx-auto flex max-w-6xl items-center justify-between px-6 py-4">
          <Link to={`/${lang}`} className="text-lg font-bold text-brand-600">
            {t('app.name')}
          </Link>
          <label className="flex items-center gap-2 text-sm text-slate-600">
            <span className="sr-only">{t('language.label')}</span>
            <select
              className="rounded-lg border border-slate-300 px-2 py-1"
              value={lang}
              onChange={(event) => switchLanguage(event.target.value as Lang)}
            >
              {locales.map((locale) => (
                <option key={locale.lang} value={locale.lang}>
                  {`${locale.flag} ${locale.name}`}
                </option>
              ))}
            </select>
          </label>
        </div>
      </header>
      <main className="flex-1">
        <Outlet />
      </main>
      <footer className="border-t border-slate-200 py-6 text-center text-sm text-slate-500">
        {t('footer.rights')}
      </footer>
    </div>
  );
}
