import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AdminNotificationList, empEndpoints } from '#shared/contracts/notifications.ts';
import { failureMessage } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { FormError } from '../../../ui/form-field.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { notify } from '../../../ui/toast.tsx';
import { AdminPage } from '../kit/admin-page.tsx';
import { EditListDialog, SendDialog } from './list-dialogs.tsx';
import { SendsTable } from './sends-table.tsx';

const listsKey = ['notifications', 'emp'] as const;

/** §2 /admin/notifications/email-lists: the lists, their edit, sending to one, and progress. */
export function EmailListsPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t('staff_notifications.title')}>
      <EmailLists />
    </AdminPage>
  );
}

function EmailLists() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<AdminNotificationList | null>(null);
  // By id, so the confirm counts the recipients of the list as last fetched (refetched when
  // the dialog opens), not as they were when the page loaded.
  const [sendingUuid, setSendingUuid] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const lists = useQuery({
    queryKey: listsKey,
    queryFn: ({ signal }) => call(empEndpoints.list, { query: { per_page: 100 } }, { signal }),
  });
  const sending = lists.data?.items.find((list) => list.listUuid === sendingUuid);
  const done = async (message: string) => {
    setEditing(null);
    setSendingUuid(null);
    setAnnouncement(message);
    notify.success(message);
    await queryClient.invalidateQueries({ queryKey: ['notifications'] });
  };
  return (
    <>
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      <Panel id="email-lists" title={t('staff_notifications.lists')}>
        {lists.isPending ? (
          <LoadingBlock />
        ) : lists.isError ? (
          <div className="flex flex-col items-start gap-3">
            <FormError message={failureMessage(lists.error)} />
            <Button variant="secondary" onClick={() => lists.refetch()}>
              {t('staff_notifications.retry')}
            </Button>
          </div>
        ) : lists.data.items.length === 0 ? (
          <p className="text-sm text-slate-600">{t('staff_notifications.empty')}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="email-lists">
              <thead className="text-xs text-slate-500 uppercase">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    {t('staff_notifications.fields.name')}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t('staff_notifications.fields.visible')}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t('staff_notifications.fields.push')}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t('staff_notifications.subscribers')}
                  </th>
                  <th scope="col" className="py-2">
                    {t('staff.kit.actions')}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {lists.data.items.map((list) => (
                  <tr key={list.listUuid} data-testid="email-list">
                    <td className="py-3 pr-4">
                      <p className="font-medium text-slate-900">{list.name}</p>
                      <p className="text-slate-600">{list.description}</p>
                    </td>
                    <td className="py-3 pr-4">
                      {t(list.visible ? 'staff.kit.yes' : 'staff.kit.no')}
                    </td>
                    <td className="py-3 pr-4">{t(list.push ? 'staff.kit.yes' : 'staff.kit.no')}</td>
                    <td className="py-3 pr-4">{list.subscribers_count}</td>
                    <td className="py-3">
                      <div className="flex gap-2 whitespace-nowrap">
                        <Button
                          variant="secondary"
                          aria-label={t('staff_notifications.edit_named', { name: list.name })}
                          onClick={() => setEditing(list)}
                        >
                          {t('staff_notifications.edit')}
                        </Button>
                        <Button
                          aria-label={t('staff_notifications.send_named', { name: list.name })}
                          onClick={() => {
                            setSendingUuid(list.listUuid);
                            void lists.refetch();
                          }}
                        >
                          {t('staff_notifications.compose')}
                        </Button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {lists.data && (
          <p className="mt-3 text-xs text-slate-500">
            {t('staff_notifications.rate', { rate: lists.data.controls.send_rate_per_second })}
          </p>
        )}
      </Panel>
      <SendsTable />
      {editing && <EditListDialog list={editing} onClose={() => setEditing(null)} onDone={done} />}
      {sending && <SendDialog list={sending} onClose={() => setSendingUuid(null)} onDone={done} />}
    </>
  );
}
