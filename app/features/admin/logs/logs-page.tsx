import { useTranslation } from 'react-i18next';
import { AUDIT_ACTIONS } from '#shared/audit-actions.ts';
import { auditLogEndpoints } from '#shared/contracts/admin/audit-logs.ts';
import { useLang } from '../../auth/use-lang.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import type { ListFilter } from '../kit/list-filters.tsx';
import { ListPage } from '../kit/list-page.tsx';
import { auditColumns } from './audit-columns.tsx';

const FILTERS: readonly ListFilter[] = [
  { name: 'actor', label: 'staff.logs.filters.actor', kind: 'text' },
  {
    name: 'action',
    label: 'staff.logs.fields.action',
    options: AUDIT_ACTIONS.map((action) => ({
      value: action,
      label: `staff.audit_actions.${action.replace('.', '_')}`,
    })),
  },
  { name: 'subject_id', label: 'staff.logs.filters.subject', kind: 'text' },
  { name: 'from', label: 'staff.logs.filters.from', kind: 'date' },
  { name: 'to', label: 'staff.logs.filters.to', kind: 'date' },
];

/** §2 /admin/logs: every audit entry, newest first, by actor, subject, action and days. */
export function LogsPage() {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <AdminPage title={t('staff.logs.title')}>
      <ListPage
        endpoint={auditLogEndpoints.list}
        caption={t('staff.logs.title')}
        columns={auditColumns(t, lang)}
        rowKey={(entry) => entry.id}
        filters={FILTERS}
        empty={{ title: t('staff.logs.empty') }}
      />
    </AdminPage>
  );
}
