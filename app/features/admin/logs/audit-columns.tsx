import type { TFunction } from 'i18next';
import type { AuditEntry } from '#shared/contracts/admin/audit-logs.ts';
import { RouteLink } from '../../../layout/route-link.tsx';
import type { Column } from '../kit/data-table.tsx';
import { formatDateTime } from '../kit/format.ts';

/** An audit action's name as staff read it; an action this build does not know, as is. */
export function actionLabel(t: TFunction, action: string): string {
  return t(`staff.audit_actions.${action.replace('.', '_')}`, { defaultValue: action });
}

/** Who did it: the account's e-mail, or the server itself. */
export function actorLabel(t: TFunction, entry: AuditEntry): string {
  if (entry.actor) return entry.actor.email;
  return entry.actor_id === null ? t('staff.logs.system') : t('staff.logs.deleted_actor');
}

/** The columns of an audit list: when, what (a link to the whole entry), who, on whom, from where. */
export function auditColumns(t: TFunction, lang: string): readonly Column<AuditEntry>[] {
  return [
    {
      key: 'created_at',
      header: 'staff.logs.fields.created_at',
      cell: (entry) => formatDateTime(entry.created_at, lang),
    },
    {
      key: 'action',
      header: 'staff.logs.fields.action',
      cell: (entry) => (
        <RouteLink
          name="admin.logs.view"
          params={{ id: String(entry.id) }}
          className="font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
        >
          {actionLabel(t, entry.action)}
        </RouteLink>
      ),
    },
    { key: 'actor', header: 'staff.logs.fields.actor', cell: (entry) => actorLabel(t, entry) },
    {
      key: 'subject',
      header: 'staff.logs.fields.subject',
      cell: (entry) => (entry.subject_type ? `${entry.subject_type} #${entry.subject_id}` : '—'),
    },
    { key: 'ip', header: 'staff.logs.fields.ip', cell: (entry) => entry.ip ?? '—' },
  ];
}
