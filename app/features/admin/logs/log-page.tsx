import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { auditLogEndpoints } from '#shared/contracts/admin/audit-logs.ts';
import { failureMessage } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { RouteLink } from '../../../layout/route-link.tsx';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import { formatDateTime } from '../kit/format.ts';
import { actionLabel, actorLabel } from './audit-columns.tsx';

/** §2 /admin/logs/{id}: one audit entry, whole. */
export function LogPage() {
  return (
    <AdminPage title={<LogTitle />} before={<Back />}>
      <LogEntry />
    </AdminPage>
  );
}

function Back() {
  const { t } = useTranslation();
  return (
    <RouteLink name="admin.logs.overview" className="text-sm text-brand-700 hover:underline">
      ← {t('staff.logs.back')}
    </RouteLink>
  );
}

function useEntry() {
  const id = Number(useParams().id);
  return useQuery({
    queryKey: ['admin', auditLogEndpoints.view.url, id],
    queryFn: ({ signal }) => call(auditLogEndpoints.view, { query: { id } }, { signal }),
  });
}

function LogTitle() {
  const { t } = useTranslation();
  const entry = useEntry().data?.entry;
  return entry ? actionLabel(t, entry.action) : t('staff.logs.entry');
}

function LogEntry() {
  const { t } = useTranslation();
  const lang = useLang();
  const query = useEntry();
  if (query.isPending) return <LoadingBlock />;
  if (query.isError) {
    return <EmptyState title={t('staff.kit.load_failed')} text={t(failureMessage(query.error))} />;
  }
  const { entry } = query.data;
  const rows: [string, string][] = [
    ['staff.logs.fields.action', entry.action],
    ['staff.logs.fields.created_at', formatDateTime(entry.created_at, lang)],
    ['staff.logs.fields.actor', actorLabel(t, entry)],
    [
      'staff.logs.fields.subject',
      entry.subject_type ? `${entry.subject_type} #${entry.subject_id}` : '—',
    ],
    ['staff.logs.fields.ip', entry.ip ?? '—'],
    ['staff.logs.fields.user_agent', entry.user_agent ?? '—'],
  ];
  return (
    <Panel id="log-entry" title={t('staff.logs.entry')}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-500">{t(label)}</dt>
            <dd className="break-all text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <h3 className="mt-6 mb-2 text-sm font-semibold text-slate-900">
        {t('staff.logs.fields.data')}
      </h3>
      <pre
        className="overflow-x-auto rounded-lg bg-slate-900 p-4 text-xs text-slate-100"
        data-testid="log-data"
      >
        {JSON.stringify(entry.data, null, 2)}
      </pre>
    </Panel>
  );
}
