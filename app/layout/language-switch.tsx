import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { isLang, type Lang, LOCALES } from '#shared/locales.ts';
import { changeLanguage } from '../i18n/i18n.ts';
import { useAppConfig } from '../lib/app-config-context.ts';
import { withLocale } from '../lib/locale-path.ts';

/** §2 The language switch rewrites the leading locale segment of the current path. */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const id = useId();
  const config = useAppConfig();
  const { lang } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const locales = LOCALES.filter((locale) => config.locales.includes(locale.lang));

  const switchTo = async (next: Lang) => {
    try {
      await changeLanguage(next);
      await navigate(withLocale(location.pathname, next) + location.search + location.hash);
    } catch (error) {
      // §2: a failure is only logged and the page stays where it is.
      console.error('Language change failed', error);
    }
  };

  return (
    <div className="flex items-center">
      <label htmlFor={id} className="sr-only">
        {t('language.label')}
      </label>
      <select
        id={id}
        data-testid="language-switch"
        className="h-9 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-500"
        value={isLang(lang) ? lang : config.defaultLocale}
        onChange={(event) => {
          if (isLang(event.target.value)) void switchTo(event.target.value);
        }}
      >
        {locales.map((locale) => (
          <option key={locale.lang} value={locale.lang}>
            {`${locale.flag} ${locale.name}`}
          </option>
        ))}
      </select>
    </div>
  );
}
