import { Trans, useTranslation } from 'react-i18next';
import { Button } from '../../ui/button.tsx';
import { notify } from '../../ui/toast.tsx';
import { useBusyAction } from '../../ui/use-busy-action.ts';
import { useLang } from '../auth/use-lang.ts';
import { useAccount } from './use-account.ts';

/** §4 e-mail change in progress: the new address waits for its link; resend or cancel. */
export function EmailChangeNotice() {
  const { t } = useTranslation();
  const lang = useLang();
  const { user, api, applyUser } = useAccount();
  const { busy, run } = useBusyAction<'resend' | 'cancel'>();
  if (!user.email_tmp) return null;

  const resend = () =>
    run('resend', async () => {
      await api.resendEmailChange(lang);
      notify.success('toasts.change_email_p1', { description: 'toasts.change_email_p2' });
    });
  const cancel = () =>
    run('cancel', async () => {
      await applyUser((await api.cancelEmailChange()).user);
      notify.success('toasts.email_change_canceled');
    });

  return (
    <div
      role="status"
      data-testid="email-change-notice"
      className="flex flex-col gap-3 rounded-2xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900 sm:flex-row sm:items-center sm:justify-between"
    >
      <p>
        <Trans
          i18nKey="settings.email_change.pending"
          values={{ email: user.email_tmp, current: user.email }}
          components={{ strong: <strong className="font-semibold break-all" /> }}
        />
      </p>
      <div className="flex shrink-0 gap-2">
        <Button
          variant="secondary"
          loading={busy === 'resend'}
          disabled={busy === 'cancel'}
          onClick={resend}
        >
          {t('settings.email_change.resend')}
        </Button>
        <Button
          variant="ghost"
          loading={busy === 'cancel'}
          disabled={busy === 'resend'}
          onClick={cancel}
        >
          {t('settings.email_change.cancel')}
        </Button>
      </div>
    </div>
  );
}
