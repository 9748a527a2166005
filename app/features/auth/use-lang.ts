import { useParams } from 'react-router';
import { isLang, type Lang } from '#shared/locales.ts';
import { useAppConfig } from '../../lib/app-config-context.ts';

/** The language of the current path; the guard has already replaced a missing or unknown one. */
export function useLang(): Lang {
  const { lang } = useParams();
  const config = useAppConfig();
  return isLang(lang) ? lang : config.defaultLocale;
}
