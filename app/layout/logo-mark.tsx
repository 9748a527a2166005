import { useTranslation } from 'react-i18next';

/** The shield and the product's name: the app's logo link and the public pages' show it. */
export function LogoMark() {
  const { t } = useTranslation();
  return (
    <>
      <svg viewBox="0 0 24 24" className="size-7" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M12 2l8 3.5v6.2c0 5-3.4 8.9-8 10.3-4.6-1.4-8-5.3-8-10.3V5.5z"
        />
        <path fill="#fff" d="M10.6 15.6l-3.2-3.2 1.4-1.4 1.8 1.8 4.6-4.6 1.4 1.4z" />
      </svg>
      <span>{t('app.name')}</span>
    </>
  );
}

/** The logo's look, for a link. */
export const LOGO_CLASS =
  'flex items-center gap-2 whitespace-nowrap text-lg font-bold text-brand-600';
