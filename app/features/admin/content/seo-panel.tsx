import { useDeferredValue } from 'react';
import { useTranslation } from 'react-i18next';
import { analyzeSeo } from '#shared/content/seo-analysis.ts';
import type { Lang } from '#shared/locales.ts';
import { Panel } from '../../../ui/panel.tsx';

export interface SeoPanelInput {
  lang: Lang;
  title: string;
  description: string;
  slug: string;
  keyphrase: string;
  markdown: string;
  /** The page's address as a search result shows it. */
  address: string;
}

/**
 * The SEO check beside the editor, live: the same pure check the server answers
 * `POST /{key}/analyze` with (shared/content/seo-analysis.ts), run on a deferred copy of the
 * text so typing never waits for it; and the result as a search engine would show it.
 */
export function SeoPanel({ input }: { input: SeoPanelInput }) {
  const { t } = useTranslation();
  const text = useDeferredValue(input);
  const analysis = analyzeSeo({
    lang: text.lang,
    title: text.title,
    description: text.description,
    slug: text.slug,
    keyphrase: text.keyphrase,
    markdown: text.markdown,
    siteHost: window.location.hostname,
  });
  const tone =
    analysis.score >= 80
      ? 'text-emerald-700'
      : analysis.score >= 50
        ? 'text-amber-700'
        : 'text-red-700';
  return (
    <Panel title={t('staff_content.seo.title')} id="content-seo">
      <p className={`text-lg font-semibold ${tone}`} data-testid="seo-score">
        {t('staff_content.seo.score', { score: analysis.score })}
      </p>
      <section
        aria-label={t('staff_content.seo.preview')}
        className="mt-4 rounded-lg border border-slate-200 p-3"
      >
        <p className="text-xs text-slate-500">{t('staff_content.seo.preview')}</p>
        <p className="truncate text-xs text-emerald-800">{text.address}</p>
        <p className="truncate text-lg text-blue-800">{text.title}</p>
        <p className="line-clamp-2 text-sm text-slate-700">{text.description}</p>
      </section>
      <ul className="mt-4 flex flex-col gap-2 text-sm">
        {analysis.checks.map((check) => (
          <li key={check.id} className="flex gap-2">
            <span
              aria-hidden="true"
              className={check.passed ? 'text-emerald-600' : 'text-amber-600'}
            >
              {check.passed ? '✓' : '!'}
            </span>
            <span>
              <span className="sr-only">
                {t(check.passed ? 'staff_content.seo.passed' : 'staff_content.seo.to_improve')}:{' '}
              </span>
              {t(`staff_content.seo.checks.${check.id}.${check.reason}`, check.values)}
            </span>
          </li>
        ))}
      </ul>
      {analysis.readability.words > 0 && (
        <p className="mt-3 text-xs text-slate-500">
          {t('staff_content.seo.readability', {
            score: analysis.readability.score,
            band: t(`staff_content.seo.bands.${analysis.readability.band}`),
          })}
        </p>
      )}
    </Panel>
  );
}
