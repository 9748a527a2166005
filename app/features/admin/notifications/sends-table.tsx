import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { empEndpoints, type NotificationSend } from '#shared/contracts/notifications.ts';
import { failureMessage } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { FormError } from '../../../ui/form-field.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { ProgressBar } from '../../../ui/progress-bar.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { notify, notifyRequestError } from '../../../ui/toast.tsx';
import { formatDateTime } from '../kit/format.ts';

const running = (send: NotificationSend) => send.status === 'queued' || send.status === 'sending';

/** Messages sent to lists and how far each got; followed every 2 s while one is under way. */
export function SendsTable() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const sends = useQuery({
    queryKey: ['notifications', 'sends'],
    queryFn: ({ signal }) => call(empEndpoints.sends, { query: { per_page: 20 } }, { signal }),
    refetchInterval: (query) => (query.state.data?.items.some(running) ? 2_000 : false),
  });
  /** Whoever has not had the message yet never will: asked first, said after. */
  const stop = async (send: NotificationSend) => {
    const sure = await confirm({
      title: t('staff_notifications.stop_confirm_title'),
      text: t('staff_notifications.stop_confirm_text', {
        subject: send.subject,
        left: Math.max(send.total - send.sent - send.failed, 0),
      }),
      icon: 'warning',
      actionName: 'stop-send',
      yes: { label: t('staff_notifications.stop'), variant: 'danger' },
    });
    if (!sure) return;
    try {
      await call(empEndpoints.cancelSend, { body: { send_id: send.send_id } });
      notify.success('staff_notifications.stopped', { values: { subject: send.subject } });
    } catch (error) {
      notifyRequestError(error);
    }
    await queryClient.invalidateQueries({ queryKey: ['notifications'] });
  };
  return (
    <Panel id="sends" title={t('staff_notifications.sends')}>
      {sends.isPending ? (
        <LoadingBlock />
      ) : sends.isError ? (
        <FormError message={failureMessage(sends.error)} />
      ) : sends.data.items.length === 0 ? (
        <p className="text-sm text-slate-600">{t('staff_notifications.no_sends')}</p>
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="sends">
          {sends.data.items.map((send) => {
            const done = send.sent + send.failed;
            return (
              <li key={send.send_id} className="py-3" data-testid="send" data-status={send.status}>
                <div className="flex items-start justify-between gap-3">
                  <p className="font-medium text-slate-900">{send.subject}</p>
                  {running(send) && (
                    <Button
                      variant="secondary"
                      aria-label={t('staff_notifications.stop_named', { subject: send.subject })}
                      onClick={() => void stop(send)}
                    >
                      {t('staff_notifications.stop')}
                    </Button>
                  )}
                </div>
                <p className="text-sm text-slate-600">
                  {t('staff_notifications.send_line', {
                    list: send.list_name,
                    date: formatDateTime(send.created_at, i18n.language),
                    status: t(`staff_notifications.statuses.${send.status}`),
                  })}
                </p>
                <ProgressBar
                  className="mt-2"
                  value={send.status === 'done' ? 1 : done / Math.max(send.total, 1)}
                  label={t('staff_notifications.progress', { subject: send.subject })}
                />
                <p className="text-xs text-slate-500">
                  {t('staff_notifications.counts', {
                    sent: send.sent,
                    failed: send.failed,
                    total: send.total,
                  })}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </Panel>
  );
}
