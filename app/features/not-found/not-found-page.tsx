import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';

export function NotFoundPage() {
  const { t } = useTranslation();
  const { lang } = useParams();
  return (
    <section className="mx-auto max-w-xl px-6 py-24 text-center" data-testid="page-not-found">
      <p className="text-6xl font-bold text-brand-500">404</p>
      <h1 className="mt-4 text-2xl font-semibold text-slate-900">{t('not_found.title')}</h1>
      <p className="mt-2 text-slate-600">{t('not_found.text')}</p>
      <Link className="mt-8 inline-block text-brand-600 underline" to={`/${lang ?? ''}`}>
        {t('not_found.home')}
      </Link>
    </section>
  );
}
