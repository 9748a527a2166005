import { type ReactNode, useId, useState } from 'react';
import { type UseFormRegisterReturn, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  type AdminOAuthClient,
  type OAuthClientCreateRequest,
  oauthClientCreateRequest,
} from '#shared/contracts/admin/oauth-clients.ts';
import {
  DEVICE_CODE_GRANT,
  OAUTH_CLIENT_SCOPES,
  OAUTH_CLIENT_TYPES,
  OAUTH_GRANT_TYPES,
  type OAuthClientType,
} from '#shared/oauth/client-rules.ts';
import { ApiError, isApiError } from '../../../api/api-error.ts';
import { applyApiErrors, applySchemaIssues } from '../../../ui/api-form-errors.ts';
import { Button } from '../../../ui/button.tsx';
import { FieldError, FieldSlot, FormError, FormField } from '../../../ui/form-field.tsx';
import { TextInput } from '../../../ui/text-input.tsx';

/** The form's values as the inputs hold them: URI lists as typed lines. */
interface ClientFormValues {
  name: string;
  type: OAuthClientType;
  first_party: boolean;
  redirect_uris: string;
  post_logout_redirect_uris: string;
  grant_types: string[];
  scopes: string[];
  logo_uri: string;
}
type FieldName = keyof ClientFormValues;

const FIELDS: readonly FieldName[] = [
  'name',
  'type',
  'first_party',
  'redirect_uris',
  'post_logout_redirect_uris',
  'grant_types',
  'scopes',
  'logo_uri',
];

/** The label key of a grant type: the device flow's URN is no key. */
export const grantLabel = (grant: string) =>
  `staff_oauth.grants.${grant === DEVICE_CODE_GRANT ? 'device_code' : grant}`;

const lines = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

function valuesOf(client: AdminOAuthClient | undefined): ClientFormValues {
  return {
    name: client?.name ?? '',
    type: client?.type ?? 'confidential',
    first_party: client?.first_party ?? false,
    redirect_uris: (client?.redirect_uris ?? []).join('\n'),
    post_logout_redirect_uris: (client?.post_logout_redirect_uris ?? []).join('\n'),
    grant_types: client?.grant_types ?? ['authorization_code', 'refresh_token'],
    scopes: client?.scopes ?? ['openid', 'email', 'profile'],
    logo_uri: client?.logo_uri ?? '',
  };
}

function requestOf(values: ClientFormValues) {
  return {
    name: values.name,
    type: values.type,
    first_party: values.first_party,
    redirect_uris: lines(values.redirect_uris),
    post_logout_redirect_uris: lines(values.post_logout_redirect_uris),
    // A lone checkbox of a group is read as a boolean by react-hook-form; the groups have many.
    grant_types: [values.grant_types].flat().filter((grant) => typeof grant === 'string'),
    scopes: [values.scopes].flat().filter((scope) => typeof scope === 'string'),
    logo_uri: values.logo_uri.trim() === '' ? null : values.logo_uri.trim(),
  };
}

/** A list's item refused (`scopes.1`) shows under the list's field (`scopes`). */
function underTheirFields(error: unknown): unknown {
  if (!isApiError(error)) return error;
  const validation: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(error.validation)) {
    validation[field.split('.')[0] ?? field] ??= messages;
  }
  return new ApiError(error.status, error.code, { validation, info: error.info });
}

const AREA =
  'w-full min-w-0 rounded-lg border bg-white px-3 py-2 font-mono text-xs text-slate-900 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30';

/**
 * Every field of an OAuth client, for adding one and changing it (one form, two callers). The
 * type is chosen once: a public client (an app on a phone, a TV) has no secret, a
 * confidential one (a partner's server) does. Checked in the browser by the endpoint's own
 * schema, the server's messages under their fields (§5).
 */
export function OAuthClientForm(props: {
  client?: AdminOAuthClient;
  submitLabel: string;
  onSubmit: (fields: OAuthClientCreateRequest) => Promise<unknown>;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const [formError, setFormError] = useState<string>();
  const form = useForm<ClientFormValues>({ defaultValues: valuesOf(props.client) });
  const { register, handleSubmit, setError, formState, watch } = form;
  const error = (name: FieldName) => formState.errors[name]?.message as string | undefined;
  const type = watch('type');
  const editing = props.client !== undefined;

  const submit = handleSubmit(async (values) => {
    setFormError(undefined);
    const parsed = oauthClientCreateRequest.safeParse(requestOf(values));
    if (!parsed.success) {
      applySchemaIssues(parsed.error.issues, setError, FIELDS);
      return;
    }
    try {
      await props.onSubmit(parsed.data);
    } catch (failure) {
      setFormError(applyApiErrors(underTheirFields(failure), setError, FIELDS));
    }
  });

  const uris = (name: 'redirect_uris' | 'post_logout_redirect_uris', hint: string) => (
    <FieldSlot>
      <FormField label={t(`staff_oauth.fields.${name}`)} error={error(name)} hint={hint}>
        {(control) => (
          <textarea
            {...control}
            {...register(name)}
            rows={3}
            spellCheck={false}
            autoComplete="off"
            placeholder="https://partner.example/callback"
            className={`${AREA} ${error(name) ? 'border-red-500' : 'border-[#dfe1e6]'}`}
          />
        )}
      </FormField>
    </FieldSlot>
  );

  return (
    <form noValidate onSubmit={submit} className="flex flex-col" aria-label={props.submitLabel}>
      <FieldSlot>
        <TextInput
          label={t('staff_oauth.fields.name')}
          hint={t('staff_oauth.form.name_hint')}
          required
          autoComplete="off"
          error={error('name')}
          {...register('name')}
        />
      </FieldSlot>
      {editing ? (
        <p className="mb-4 text-sm text-slate-700">
          {t('staff_oauth.fields.type')}: {t(`staff_oauth.types.${type}`)}
        </p>
      ) : (
        <Choices
          legend={t('staff_oauth.fields.type')}
          error={error('type')}
          kind="radio"
          options={OAUTH_CLIENT_TYPES.map((value) => ({
            value,
            label: t(`staff_oauth.types.${value}`),
            hint: t(`staff_oauth.type_hints.${value}`),
          }))}
          registered={register('type')}
        />
      )}
      <label className="mb-4 flex cursor-pointer items-start gap-3 rounded-xl border border-slate-200 p-3">
        <input
          type="checkbox"
          {...register('first_party')}
          className="mt-0.5 size-4 shrink-0 accent-brand-500"
        />
        <span className="flex flex-col">
          <span className="text-sm font-medium text-slate-900">
            {t('staff_oauth.fields.first_party')}
          </span>
          <span className="text-xs text-slate-600">{t('staff_oauth.form.first_party_hint')}</span>
        </span>
      </label>
      {uris(
        'redirect_uris',
        t(
          type === 'public'
            ? 'staff_oauth.form.redirect_hint_public'
            : 'staff_oauth.form.redirect_hint',
        ),
      )}
      {uris('post_logout_redirect_uris', t('staff_oauth.form.post_logout_hint'))}
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Choices
          legend={t('staff_oauth.fields.grant_types')}
          error={error('grant_types')}
          kind="checkbox"
          options={OAUTH_GRANT_TYPES.map((value) => ({
            value,
            label: t(grantLabel(value)),
            disabled: value === DEVICE_CODE_GRANT && type !== 'public',
          }))}
          registered={register('grant_types')}
        />
        <Choices
          legend={t('staff_oauth.fields.scopes')}
          error={error('scopes')}
          kind="checkbox"
          options={OAUTH_CLIENT_SCOPES.map((value) => ({
            value,
            label: `${value} — ${t(`staff_oauth.scopes.${value}`)}`,
          }))}
          registered={register('scopes')}
        />
      </div>
      <FieldSlot>
        <TextInput
          label={t('staff_oauth.fields.logo_uri')}
          hint={t('staff_oauth.form.logo_hint')}
          type="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://partner.example/logo.png"
          error={error('logo_uri')}
          {...register('logo_uri')}
        />
      </FieldSlot>
      <FormError message={formError} className="mb-4" />
      <div className="flex flex-wrap justify-end gap-2">
        {props.extra}
        <Button type="submit" loading={formState.isSubmitting}>
          {props.submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** A group of radio buttons or checkboxes with its legend and one message under it. */
function Choices(props: {
  legend: string;
  error: string | undefined;
  kind: 'radio' | 'checkbox';
  options: readonly { value: string; label: string; hint?: string; disabled?: boolean }[];
  registered: UseFormRegisterReturn;
}) {
  const id = useId();
  return (
    <fieldset
      className="mb-4 flex flex-col gap-2"
      aria-describedby={props.error ? `${id}-error` : undefined}
      aria-invalid={props.error ? true : undefined}
    >
      <legend className="mb-1 text-sm font-medium text-slate-800">{props.legend}</legend>
      {props.options.map((option) => (
        <label
          key={option.value}
          className={`flex items-start gap-2 text-sm ${option.disabled ? 'text-slate-400' : 'cursor-pointer text-slate-800'}`}
        >
          <input
            type={props.kind}
            value={option.value}
            disabled={option.disabled}
            {...props.registered}
            className="mt-0.5 size-4 shrink-0 accent-brand-500"
          />
          <span className="flex flex-col">
            <span>{option.label}</span>
            {option.hint && <span className="text-xs text-slate-600">{option.hint}</span>}
          </span>
        </label>
      ))}
      <FieldError id={`${id}-error`} message={props.error} />
    </fieldset>
  );
}
