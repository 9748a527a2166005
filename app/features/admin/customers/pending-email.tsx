import { useTranslation } from 'react-i18next';
import { type CustomerDetail, customerEndpoints } from '#shared/contracts/admin/customers.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useBusyAction } from '../../../ui/use-busy-action.ts';

/** §6 cancel or resend a customer's pending change of e-mail address. */
export function PendingEmail(props: {
  user: CustomerDetail;
  onChanged: (user: CustomerDetail) => Promise<void>;
}) {
  const { t } = useTranslation();
  const { busy, run } = useBusyAction<'cancel' | 'resend'>();
  const { user } = props;
  if (!user.email_tmp) return null;
  const body = { user_id: user.id };
  const resend = () =>
    run('resend', async () => {
      await call(customerEndpoints.resendEmailChange, { body });
      notify.success('staff.customers.email_change_resent');
    });
  const cancel = () =>
    run('cancel', async () => {
      await props.onChanged((await call(customerEndpoints.cancelEmailChange, { body })).user);
      notify.success('staff.customers.email_change_cancelled');
    });
  return (
    <div
      className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-xl bg-amber-50 p-4 text-sm text-amber-900"
      data-testid="customer-pending-email"
    >
      <p>{t('staff.customers.pending_email', { email: user.email_tmp })}</p>
      <div className="flex gap-2">
        <Button variant="secondary" loading={busy === 'resend'} onClick={resend}>
          {t('staff.customers.resend_link')}
        </Button>
        <Button variant="secondary" loading={busy === 'cancel'} onClick={cancel}>
          {t('staff.customers.cancel_change')}
        </Button>
      </div>
    </div>
  );
}
