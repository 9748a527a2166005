import { useTranslation } from 'react-i18next';
import type { ContentState } from '#shared/content/content-values.ts';
import type { Lang } from '#shared/locales.ts';

const TONES: Record<ContentState | 'missing', string> = {
  draft: 'bg-slate-100 text-slate-700',
  scheduled: 'bg-amber-100 text-amber-800',
  published: 'bg-emerald-100 text-emerald-800',
  unpublished: 'bg-red-50 text-red-700',
  missing: 'border border-dashed border-slate-300 text-slate-400',
};

/** A language and its state (or "not written"), said in words for screen readers. */
export function StateBadge({ lang, state }: { lang: Lang; state: ContentState | 'missing' }) {
  const { t } = useTranslation();
  const label = t('staff_content.language_state', {
    language: t(`staff_content.languages.${lang}`),
    state: t(`staff_content.states.${state}`),
  });
  return (
    <span
      title={label}
      className={`inline-flex h-6 min-w-8 items-center justify-center rounded px-1.5 text-xs font-semibold uppercase ${TONES[state]}`}
    >
      <span aria-hidden="true">{lang}</span>
      <span className="sr-only">{label}</span>
    </span>
  );
}
