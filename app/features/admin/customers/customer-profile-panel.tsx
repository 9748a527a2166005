import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { countryEndpoints } from '#shared/contracts/admin/countries.ts';
import {
  type CustomerDetail,
  customerEndpoints,
  customerUpdateRequest,
} from '#shared/contracts/admin/customers.ts';
import { isApiError } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { confirm } from '../../../ui/confirm.ts';
import { Panel } from '../../../ui/panel.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { EntityForm } from '../kit/entity-form.tsx';
import { formatDateTime } from '../kit/format.ts';
import { PendingEmail } from './pending-email.tsx';

const onlyPasswordMissing = (validation: Record<string, string[]>) =>
  Object.keys(validation).length === 1 && validation.password !== undefined;

interface Props {
  user: CustomerDetail;
  onSaved: (user: CustomerDetail) => Promise<void>;
}

/** The customer's profile: what it is, and name, e-mail and country to change (§7 update). */
export function CustomerProfilePanel({ user, onSaved }: Props) {
  const { t } = useTranslation();
  const lang = useLang();
  const countries = useQuery({
    queryKey: ['admin', countryEndpoints.list.url, lang],
    queryFn: ({ signal }) => call(countryEndpoints.list, { query: { lang } }, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const facts: [string, string][] = [
    ['staff.customers.fields.username', `@${user.username}`],
    ['staff.customers.fields.role', t(`staff.roles.${user.role}`)],
    ['staff.customers.fields.created_at', formatDateTime(user.created_at, lang)],
    [
      'staff.customers.fields.two_factor',
      t(user.two_factor_authentication_confirmed ? 'staff.kit.yes' : 'staff.kit.no'),
    ],
    [
      'staff.customers.fields.traffic_limit',
      user.traffic_limit === null
        ? t('staff.customers.unlimited')
        : t('staff.customers.gb', { count: user.traffic_limit }),
    ],
  ];
  if (user.blocked_at)
    facts.push(['staff.customers.fields.blocked_at', formatDateTime(user.blocked_at, lang)]);
  if (user.delete_at)
    facts.push(['staff.customers.fields.delete_at', formatDateTime(user.delete_at, lang)]);

  return (
    <Panel id="customer-profile" title={t('staff.customers.profile')}>
      <dl className="mb-6 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-500">{t(label)}</dt>
            <dd className="text-slate-900" data-testid={`fact-${label.split('.').at(-1)}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <PendingEmail user={user} onChanged={onSaved} />
      <EntityForm
        // A new form once the countries are in, so the select shows the customer's own.
        key={`${user.id}-${user.email}-${user.name}-${user.country_id}-${countries.isSuccess}`}
        schema={customerUpdateRequest}
        defaultValues={{
          user_id: user.id,
          name: user.name ?? '',
          email: user.email,
          country_id: user.country_id,
        }}
        fields={[
          { name: 'name', label: 'staff.customers.fields.name' },
          {
            name: 'email',
            label: 'staff.customers.fields.email',
            type: 'email',
            required: true,
            hint: 'staff.customers.email_hint',
          },
          {
            name: 'country_id',
            label: 'staff.customers.fields.country',
            type: 'select',
            nullable: true,
            options: (countries.data?.items ?? []).map((country) => ({
              value: country.id,
              label: country.name,
            })),
          },
        ]}
        submitLabel={t('staff.kit.save')}
        onSubmit={async (values) => {
          const save = async (password?: string) => {
            const body = { ...values, password };
            const { user: saved } = await call(customerEndpoints.update, { body });
            notify.success('staff.customers.saved');
            await onSaved(saved);
          };
          try {
            await save();
          } catch (error) {
            // A new e-mail address takes the admin's own password: asked for, then saved.
            if (!isApiError(error) || !onlyPasswordMissing(error.validation)) throw error;
            await confirm({
              title: t('staff.customers.confirm.email_title'),
              text: t('staff.customers.confirm.email_text', { email: values.email }),
              icon: 'warning',
              password: true,
              actionName: 'customer-email',
              yes: { label: t('staff.kit.save') },
              onConfirm: (password) => save(password),
            });
          }
        }}
      />
    </Panel>
  );
}
