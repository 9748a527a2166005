import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type HelpArticleVotes,
  type HelpSearchMiss,
  helpInsightsEndpoints,
} from '#shared/contracts/admin/help-insights.ts';
import type { Lang } from '#shared/locales.ts';
import { failureMessage } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { RouteLink } from '../../../layout/route-link.tsx';
import { Button } from '../../../ui/button.tsx';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { type Column, DataTable } from '../kit/data-table.tsx';
import { formatDateTime } from '../kit/format.ts';
import { CONTENT_AREAS } from './content-areas.ts';

const languageName = (lang: string) => `staff_content.languages.${lang}`;

function missColumns(lang: Lang): Column<HelpSearchMiss>[] {
  return [
    {
      key: 'query',
      header: 'staff_help_insights.misses.columns.query',
      cell: (miss) => miss.query,
    },
    {
      key: 'lang',
      header: 'staff_help_insights.columns.lang',
      cell: (miss) => <LanguageName lang={miss.lang} />,
    },
    {
      key: 'count',
      header: 'staff_help_insights.misses.columns.count',
      cell: (miss) => miss.count,
      className: 'text-right tabular-nums',
    },
    {
      key: 'last',
      header: 'staff_help_insights.misses.columns.last_searched',
      cell: (miss) => formatDateTime(miss.last_searched_at, lang),
    },
  ];
}

const voteColumns: Column<HelpArticleVotes>[] = [
  {
    key: 'article',
    header: 'staff_help_insights.votes.columns.article',
    cell: (row) => (
      <RouteLink
        name={CONTENT_AREAS.articles.edit}
        params={{ id: String(row.item_id) }}
        className="font-medium text-brand-700 hover:underline"
      >
        {row.title}
      </RouteLink>
    ),
  },
  {
    key: 'lang',
    header: 'staff_help_insights.columns.lang',
    cell: (row) => <LanguageName lang={row.lang} />,
  },
  {
    key: 'yes',
    header: 'staff_help_insights.votes.columns.yes',
    cell: (row) => row.yes,
    className: 'text-right tabular-nums',
  },
  {
    key: 'no',
    header: 'staff_help_insights.votes.columns.no',
    cell: (row) => row.no,
    className: 'text-right tabular-nums',
  },
];

function LanguageName({ lang }: { lang: string }) {
  const { t } = useTranslation();
  return <>{t(languageName(lang))}</>;
}

const unsorted = { sort: undefined, direction: undefined, busy: false, onSort: () => {} };

/**
 * The help center's overview, below its articles: what visitors searched for and found
 * nothing (the most asked first), and how they rated the articles ("was this helpful?").
 */
export function HelpInsightsPanel() {
  const { t } = useTranslation();
  const lang = useLang();
  const headingId = useId();
  const insights = useQuery({
    queryKey: ['admin', helpInsightsEndpoints.view.url],
    queryFn: ({ signal }) => call(helpInsightsEndpoints.view, {}, { signal }),
  });

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <div>
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          {t('staff_help_insights.title')}
        </h2>
        <p className="text-sm text-slate-600">{t('staff_help_insights.description')}</p>
      </div>
      {insights.isPending ? (
        <LoadingBlock />
      ) : insights.isError ? (
        <EmptyState
          title={t('staff.kit.load_failed')}
          text={t(failureMessage(insights.error))}
          action={<Button onClick={() => insights.refetch()}>{t('staff.kit.retry')}</Button>}
        />
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          <Panel
            id={`${headingId}-misses`}
            title={t('staff_help_insights.misses.title')}
            description={t('staff_help_insights.misses.description')}
          >
            {insights.data.misses.length === 0 ? (
              <EmptyState
                className="py-6"
                title={t('staff_help_insights.misses.empty_title')}
                text={t('staff_help_insights.misses.empty_text')}
              />
            ) : (
              <DataTable
                caption={t('staff_help_insights.misses.title')}
                columns={missColumns(lang)}
                rows={insights.data.misses}
                rowKey={(miss) => `${miss.lang}:${miss.query}`}
                {...unsorted}
              />
            )}
          </Panel>
          <Panel
            id={`${headingId}-votes`}
            title={t('staff_help_insights.votes.title')}
            description={t('staff_help_insights.votes.description')}
          >
            {insights.data.votes.length === 0 ? (
              <EmptyState
                className="py-6"
                title={t('staff_help_insights.votes.empty_title')}
                text={t('staff_help_insights.votes.empty_text')}
              />
            ) : (
              <DataTable
                caption={t('staff_help_insights.votes.title')}
                columns={voteColumns}
                rows={insights.data.votes}
                rowKey={(row) => row.translation_id}
                {...unsorted}
              />
            )}
          </Panel>
        </div>
      )}
    </section>
  );
}
