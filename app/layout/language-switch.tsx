import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { isLang, type Lang, LOCALES } from '#shared/locales.ts';
import { changeLanguage } from '../i18n/i18n.ts';
import { useAppConfig } from '../lib/app-config-context.ts';
import { withLocale } from '../lib/locale-path.ts';
import { Select } from '../ui/select.tsx';
import { Flag } from './flag.tsx';

/** §2 The language switch rewrites the leading locale segment of the current path. */
export function LanguageSwitch() {
  const { t } = useTranslation();
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
    <Select
      id="language-switch"
      className="w-40"
      aria-label={t('language.label')}
      value={isLang(lang) ? lang : config.defaultLocale}
      options={locales.map((locale) => ({
        value: locale.lang,
        name: locale.name,
        icon: <Flag lang={locale.lang} />,
      }))}
      onSelect={(next) => {
        if (isLang(next)) void switchTo(next);
      }}
    />
  );
}
