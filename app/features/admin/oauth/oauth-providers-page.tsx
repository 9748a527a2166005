import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { auditLogEndpoints } from '#shared/contracts/admin/audit-logs.ts';
import {
  oauthProviderSettingsEndpoints as e,
  type OAuthProviderSettingsView,
} from '#shared/contracts/admin/oauth-providers.ts';
import { call } from '../../../api/client.ts';
import { QueryProvider } from '../../../api/query-provider.tsx';
import { titleKey } from '../../../routes/route-titles.ts';
import { applyApiErrors } from '../../../ui/api-form-errors.ts';
import { Button } from '../../../ui/button.tsx';
import { FieldSlot, FormError, FormField } from '../../../ui/form-field.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { TextInput } from '../../../ui/text-input.tsx';
import { notify } from '../../../ui/toast.tsx';
import { AdminPage } from '../kit/admin-page.tsx';
import { LoadFailed } from '../kit/load-failed.tsx';
import { CopyField } from '../servers/copy-field.tsx';

const KEY = ['admin', e.list.url] as const;

/**
 * §2 /admin/oauth/client: Google's and Apple's sign-in settings. Secrets are write-only: the
 * page says whether one is set and never shows it; a field left empty keeps what is stored.
 * A save holds from the next sign-in on, in every process.
 */
export function OAuthProvidersPage() {
  return (
    <QueryProvider>
      <OAuthProviders />
    </QueryProvider>
  );
}

function OAuthProviders() {
  const { t } = useTranslation();
  const title = t(titleKey('admin.oauth.servers'));
  const query = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => call(e.list, {}, { signal }),
  });
  if (query.isPending) {
    return (
      <AdminPage title={title}>
        <LoadingBlock />
      </AdminPage>
    );
  }
  if (query.isError) {
    return (
      <AdminPage title={title}>
        <LoadFailed error={query.error} onRetry={() => void query.refetch()} />
      </AdminPage>
    );
  }
  return (
    <AdminPage title={title}>
      <p className="max-w-3xl text-sm text-slate-600">{t('staff_oauth.providers.intro')}</p>
      <div className="grid gap-6 lg:grid-cols-2 [&>*]:min-w-0">
        {query.data.items.map((view) => (
          <ProviderPanel key={view.provider} view={view} />
        ))}
      </div>
    </AdminPage>
  );
}

interface ProviderForm {
  enabled: boolean;
  client_id: string;
  issuer: string;
  secret: string;
  apple_team_id: string;
  apple_key_id: string;
}
type FieldName = keyof ProviderForm;
const FIELDS: FieldName[] = [
  'enabled',
  'client_id',
  'issuer',
  'secret',
  'apple_team_id',
  'apple_key_id',
];

/** Secrets are never in the answer, so the form starts them empty (empty keeps them). */
const formOf = (view: OAuthProviderSettingsView): ProviderForm => ({
  enabled: view.enabled || view.source === 'none',
  client_id: view.client_id,
  issuer: view.issuer,
  secret: '',
  apple_team_id: view.apple_team_id ?? '',
  apple_key_id: view.apple_key_id ?? '',
});

function ProviderPanel({ view }: { view: OAuthProviderSettingsView }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const id = useId();
  const apple = view.provider === 'apple';
  const form = useForm<ProviderForm>({ defaultValues: formOf(view) });
  const [formError, setFormError] = useState<string>();
  const error = (name: FieldName) => form.formState.errors[name]?.message;

  const submit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      const { item } = await call(e.update, {
        body: {
          provider: view.provider,
          enabled: values.enabled,
          client_id: values.client_id,
          issuer: values.issuer.trim() || undefined,
          secret: values.secret.trim() || undefined,
          ...(apple
            ? { apple_team_id: values.apple_team_id, apple_key_id: values.apple_key_id }
            : {}),
        },
      });
      queryClient.setQueryData<{ items: OAuthProviderSettingsView[] }>(KEY, (answer) => ({
        items: (answer?.items ?? [item]).map((old) =>
          old.provider === item.provider ? item : old,
        ),
      }));
      // The secret typed here leaves the page once saved.
      form.reset(formOf(item));
      notify.success('staff_oauth.providers.saved', {
        values: { provider: t(`staff_oauth.providers.names.${item.provider}`) },
      });
      await queryClient.invalidateQueries({ queryKey: ['admin', auditLogEndpoints.list.url] });
    } catch (failure) {
      setFormError(applyApiErrors(failure, form.setError, FIELDS));
    }
  });

  const secretState = !view.secret_set
    ? 'staff_oauth.providers.secret_not_set'
    : view.source === 'environment'
      ? 'staff_oauth.providers.secret_in_environment'
      : 'staff_oauth.providers.secret_set';
  const name = t(`staff_oauth.providers.names.${view.provider}`);

  return (
    <Panel
      id={`provider-${view.provider}`}
      title={name}
      actions={
        <span
          data-testid={`provider-status-${view.provider}`}
          className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${view.enabled ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-100 text-slate-700'}`}
        >
          {t(view.enabled ? 'staff_oauth.providers.on' : 'staff_oauth.providers.off')}
        </span>
      }
    >
      <p className="mb-4 text-sm text-slate-600">
        {t('staff_oauth.providers.source_label')}:{' '}
        {t(`staff_oauth.providers.source.${view.source}`)}
      </p>
      {view.source === 'environment' && (
        <p className="mb-4 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {t('staff_oauth.providers.environment_note')}
        </p>
      )}
      <CopyField
        label={t('staff_oauth.providers.callback_url')}
        value={view.callback_url}
        copyLabel={t('staff_oauth.providers.copy_callback')}
        testId={`callback-${view.provider}`}
      />
      <form
        noValidate
        onSubmit={submit}
        className="mt-4 flex flex-col"
        aria-label={t('staff_oauth.providers.form_label', { provider: name })}
      >
        <label className="mb-4 flex cursor-pointer items-start gap-3 rounded-xl border border-slate-200 p-3">
          <input
            type="checkbox"
            {...form.register('enabled')}
            className="mt-0.5 size-4 shrink-0 accent-brand-500"
          />
          <span className="flex flex-col">
            <span className="text-sm font-medium text-slate-900">
              {t('staff_oauth.providers.enabled', { provider: name })}
            </span>
            <span className="text-xs text-slate-600">
              {t('staff_oauth.providers.enabled_text')}
            </span>
          </span>
        </label>
        <FieldSlot>
          <TextInput
            label={t(
              apple ? 'staff_oauth.providers.services_id' : 'staff_oauth.providers.client_id',
            )}
            autoComplete="off"
            spellCheck={false}
            error={error('client_id')}
            {...form.register('client_id')}
          />
        </FieldSlot>
        {apple && (
          <div className="grid gap-x-4 sm:grid-cols-2">
            <FieldSlot>
              <TextInput
                label={t('staff_oauth.providers.team_id')}
                autoComplete="off"
                spellCheck={false}
                error={error('apple_team_id')}
                {...form.register('apple_team_id')}
              />
            </FieldSlot>
            <FieldSlot>
              <TextInput
                label={t('staff_oauth.providers.key_id')}
                autoComplete="off"
                spellCheck={false}
                error={error('apple_key_id')}
                {...form.register('apple_key_id')}
              />
            </FieldSlot>
          </div>
        )}
        <FieldSlot>
          <FormField
            label={t(
              apple ? 'staff_oauth.providers.private_key' : 'staff_oauth.providers.client_secret',
            )}
            error={error('secret')}
            hint={t('staff_oauth.providers.secret_hint')}
          >
            {(control) => {
              const describedBy = [`${id}-secret`, control['aria-describedby']]
                .filter(Boolean)
                .join(' ');
              const common = {
                ...control,
                'aria-describedby': describedBy,
                ...form.register('secret'),
              };
              const border = error('secret') ? 'border-red-500' : 'border-[#dfe1e6]';
              return apple ? (
                <textarea
                  {...common}
                  rows={4}
                  spellCheck={false}
                  autoComplete="off"
                  placeholder="-----BEGIN PRIVATE KEY-----"
                  className={`w-full min-w-0 rounded-lg border bg-white px-3 py-2 font-mono text-xs ${border}`}
                />
              ) : (
                <input
                  {...common}
                  type="password"
                  // A password manager must neither fill in a login here nor offer to save it.
                  autoComplete="new-password"
                  spellCheck={false}
                  className={`h-10 w-full min-w-0 rounded-lg border bg-white px-3 text-sm ${border}`}
                />
              );
            }}
          </FormField>
        </FieldSlot>
        <p
          id={`${id}-secret`}
          className="-mt-3 mb-4 text-xs text-slate-600"
          data-testid={`secret-state-${view.provider}`}
        >
          {t(secretState)}
        </p>
        <FieldSlot>
          <TextInput
            label={t('staff_oauth.providers.issuer')}
            hint={t('staff_oauth.providers.issuer_hint')}
            type="url"
            autoComplete="off"
            spellCheck={false}
            error={error('issuer')}
            {...form.register('issuer')}
          />
        </FieldSlot>
        <FormError message={formError} className="mb-4" />
        <div className="flex justify-end">
          <Button type="submit" loading={form.formState.isSubmitting}>
            {t('staff_oauth.providers.save', { provider: name })}
          </Button>
        </div>
      </form>
    </Panel>
  );
}
