import { useTranslation } from 'react-i18next';
import {
  type CustomerDetail,
  customerEndpoints,
  customerPasswordRequest,
  trafficLimitRequest,
} from '#shared/contracts/admin/customers.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { notify } from '../../../ui/toast.tsx';
import { EntityForm } from '../kit/entity-form.tsx';

interface Props {
  kind: 'password' | 'traffic' | undefined;
  user: CustomerDetail;
  onClose: () => void;
  onSaved: (user: CustomerDetail) => Promise<void>;
}

/** The two actions that take a form: a new password for the customer, the traffic limit. */
export function CustomerFormDialog({ kind, user, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const cancel = (
    <Button variant="secondary" onClick={onClose}>
      {t('staff.kit.cancel')}
    </Button>
  );
  const done = async (saved: CustomerDetail, message: string) => {
    notify.success(message);
    onClose();
    await onSaved(saved);
  };
  return (
    <Modal
      open={kind !== undefined}
      onOpenChange={(open) => !open && onClose()}
      title={t(
        kind === 'traffic' ? 'staff.customers.traffic_title' : 'staff.customers.password_title',
      )}
      description={t(
        kind === 'traffic' ? 'staff.customers.traffic_text' : 'staff.customers.password_text',
      )}
    >
      {kind === 'password' && (
        <EntityForm
          schema={customerPasswordRequest}
          defaultValues={{
            user_id: user.id,
            password: '',
            password_confirmation: '',
            current_password: '',
          }}
          fields={[
            {
              name: 'password',
              label: 'auth.fields.new_password',
              type: 'new-password',
              required: true,
            },
            {
              name: 'password_confirmation',
              label: 'auth.fields.password_confirmation',
              type: 'new-password',
              required: true,
            },
            {
              name: 'current_password',
              label: 'staff.customers.your_password',
              type: 'password',
              required: true,
              autoComplete: 'current-password',
            },
          ]}
          submitLabel={t('staff.customers.actions.password')}
          extra={cancel}
          onSubmit={async (body) =>
            done(
              (await call(customerEndpoints.updatePassword, { body })).user,
              'staff.customers.done.password',
            )
          }
        />
      )}
      {kind === 'traffic' && (
        <EntityForm
          schema={trafficLimitRequest}
          defaultValues={{ user_id: user.id, traffic_limit: user.traffic_limit }}
          fields={[
            {
              name: 'traffic_limit',
              label: 'staff.customers.fields.traffic_limit',
              type: 'number',
              nullable: true,
              hint: 'staff.customers.traffic_hint',
            },
          ]}
          submitLabel={t('staff.kit.save')}
          extra={cancel}
          onSubmit={async (body) =>
            done(
              (await call(customerEndpoints.updateTrafficLimit, { body })).user,
              'staff.customers.done.traffic',
            )
          }
        />
      )}
    </Modal>
  );
}
