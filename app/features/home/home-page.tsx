import { useTranslation } from 'react-i18next';
import { RouteLink } from '../../layout/route-link.tsx';

export function HomePage() {
  const { t } = useTranslation();
  return (
    <section className="mx-auto max-w-3xl px-6 py-20 text-center">
      <h1 className="text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
        {t('home.title')}
      </h1>
      <p className="mt-6 text-lg text-slate-600">{t('home.lead')}</p>
      <RouteLink
        name="order2"
        className="mt-10 inline-block rounded-lg bg-brand-600 px-6 py-3 font-semibold text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
      >
        {t('home.get')}
      </RouteLink>
    </section>
  );
}
