import { useTranslation } from 'react-i18next';
import { auditLogEndpoints } from '#shared/contracts/admin/audit-logs.ts';
import { Panel } from '../../../ui/panel.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { ListPage } from '../kit/list-page.tsx';
import { auditColumns } from '../logs/audit-columns.tsx';

/** The audit trail of one customer: what they did, and what was done to their account. */
export function CustomerTrail({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <Panel id="customer-trail" title={t('staff.customers.trail')}>
      <ListPage
        endpoint={auditLogEndpoints.list}
        caption={t('staff.customers.trail')}
        fixed={{ user_id: userId }}
        prefix="trail_"
        perPage={10}
        rowKey={(entry) => entry.id}
        columns={auditColumns(t, lang)}
        empty={{ title: t('staff.logs.empty') }}
      />
    </Panel>
  );
}
