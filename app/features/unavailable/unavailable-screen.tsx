import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { RouteName } from '../../routes/route-table.ts';
import { titleKey } from '../../routes/route-titles.ts';

/** A screen whose feature comes in a later release: a real page inside the shell, never blank. */
export function UnavailableScreen({ name }: { name: RouteName }) {
  const { t } = useTranslation();
  const { lang } = useParams();
  return (
    <section className="mx-auto max-w-xl px-6 py-20 text-center" data-testid="screen-unavailable">
      <h1 className="text-2xl font-semibold text-slate-900">{t(titleKey(name))}</h1>
      <p className="mt-3 text-slate-600">{t('unavailable.text')}</p>
      <Link className="mt-8 inline-block text-brand-600 underline" to={`/${lang ?? ''}`}>
        {t('not_found.home')}
      </Link>
    </section>
  );
}
