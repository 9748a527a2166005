import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  CUSTOMER_ROLES,
  customerCreateRequest,
  customerEndpoints,
} from '#shared/contracts/admin/customers.ts';
import { call } from '../../../api/client.ts';
import { pathFor } from '../../../routes/match-route.ts';
import { Button } from '../../../ui/button.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { EntityForm } from '../kit/entity-form.tsx';

/** §5 admin user-create form: name, e-mail, password twice and the role. */
export function CreateCustomerDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <Modal
      open={props.open}
      onOpenChange={props.onOpenChange}
      title={t('staff.customers.create_title')}
      description={t('staff.customers.create_text')}
    >
      <EntityForm
        schema={customerCreateRequest}
        defaultValues={{
          name: '',
          email: '',
          password: '',
          password_confirmation: '',
          role: 'USER',
        }}
        fields={[
          {
            name: 'name',
            label: 'staff.customers.fields.name',
            required: true,
            autoComplete: 'off',
          },
          {
            name: 'email',
            label: 'staff.customers.fields.email',
            type: 'email',
            required: true,
            autoComplete: 'off',
          },
          { name: 'password', label: 'auth.fields.password', type: 'new-password', required: true },
          {
            name: 'password_confirmation',
            label: 'auth.fields.password_confirmation',
            type: 'new-password',
            required: true,
          },
          {
            name: 'role',
            label: 'staff.customers.fields.role',
            type: 'select',
            required: true,
            options: CUSTOMER_ROLES.map((role) => ({
              value: role,
              label: t(`staff.roles.${role}`),
            })),
          },
          {
            name: 'current_password',
            label: 'staff.customers.your_password',
            type: 'password',
            optional: true,
            autoComplete: 'current-password',
            hint: 'staff.customers.your_password_staff',
          },
        ]}
        submitLabel={t('staff.customers.create')}
        extra={
          <Button variant="secondary" onClick={() => props.onOpenChange(false)}>
            {t('staff.kit.cancel')}
          </Button>
        }
        onSubmit={async (values) => {
          const { user } = await call(customerEndpoints.create, { body: values });
          notify.success('staff.customers.created', { values: { email: user.email } });
          await queryClient.invalidateQueries({ queryKey: ['admin'] });
          props.onOpenChange(false);
          await navigate(pathFor('admin.customers.view', lang, { id: String(user.id) }));
        }}
      />
    </Modal>
  );
}
