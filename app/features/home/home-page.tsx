import { useTranslation } from 'react-i18next';

export function HomePage() {
  const { t } = useTranslation();
  return (
    <section className="mx-auto max-w-3xl px-6 py-20 text-center">
      <h1 className="text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
        {t('home.title')}
      </h1>
      <p className="mt-6 text-lg text-slate-600">{t('home.lead')}</p>
    </section>
  );
}
