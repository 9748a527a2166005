import { type ReactNode, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  type AdminServer,
  type ServerFields,
  serverFields,
} from '#shared/contracts/admin/servers.ts';
import { SUGGESTED_TAGS } from '#shared/vpn/fleet-rules.ts';
import { ApiError, isApiError } from '../../../api/api-error.ts';
import { applyApiErrors, applySchemaIssues } from '../../../ui/api-form-errors.ts';
import { Button } from '../../../ui/button.tsx';
import { FieldSlot, FormError, FormField } from '../../../ui/form-field.tsx';
import { TextInput } from '../../../ui/text-input.tsx';
import { useCities, useFleetCountries } from './fleet-queries.ts';

/** The form's values as the inputs hold them: numbers and lists as typed text. */
interface ServerFormValues {
  name: string;
  country_code: string;
  city: string;
  endpoint_host: string;
  endpoint_port: string;
  listen_port: string;
  ipv4_pool: string;
  ipv6_pool: string;
  /** Resolvers separated by commas or spaces. */
  dns: string;
  capacity: string;
  /** Tags separated by commas or spaces. */
  tags: string;
}
type FieldName = keyof ServerFormValues;

const FIELDS: readonly FieldName[] = [
  'name',
  'country_code',
  'city',
  'endpoint_host',
  'endpoint_port',
  'listen_port',
  'ipv4_pool',
  'ipv6_pool',
  'dns',
  'capacity',
  'tags',
];

/** A new server: WireGuard's own port, and the contract's defaults for the rest. */
const fields = serverFields.shape;
const NEW_SERVER = {
  endpoint_port: 51820,
  ipv4_pool: fields.ipv4_pool.parse(undefined),
  ipv6_pool: fields.ipv6_pool.parse(undefined),
  dns: fields.dns.parse(undefined),
  capacity: fields.capacity.parse(undefined),
};

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '');

function valuesOf(server: AdminServer | undefined, countryCode: string): ServerFormValues {
  return {
    name: server?.name ?? '',
    country_code: server?.country_code ?? countryCode,
    city: server?.city ?? '',
    endpoint_host: server?.endpoint_host ?? '',
    endpoint_port: String(server?.endpoint_port ?? NEW_SERVER.endpoint_port),
    listen_port: server?.listen_port?.toString() ?? '',
    ipv4_pool: server?.ipv4_pool ?? NEW_SERVER.ipv4_pool,
    ipv6_pool: server?.ipv6_pool ?? NEW_SERVER.ipv6_pool,
    dns: (server?.dns ?? NEW_SERVER.dns).join(', '),
    capacity: String(server?.capacity ?? NEW_SERVER.capacity),
    tags: (server?.tags ?? []).join(', '),
  };
}

/** A typed whole number; NaN for anything else, which the schema refuses under the field. */
const whole = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim()));

function requestOf(values: ServerFormValues, cityId: number | null) {
  return {
    name: values.name,
    country_code: values.country_code,
    city: values.city,
    city_id: cityId,
    endpoint_host: values.endpoint_host,
    endpoint_port: whole(values.endpoint_port),
    listen_port: values.listen_port.trim() === '' ? null : whole(values.listen_port),
    ipv4_pool: values.ipv4_pool,
    ipv6_pool: values.ipv6_pool,
    dns: list(values.dns),
    capacity: whole(values.capacity),
    tags: list(values.tags),
  };
}

/** A list's item refused (`dns.1`) shows under the list's field (`dns`). */
function underTheirFields(error: unknown): unknown {
  if (!isApiError(error)) return error;
  const validation: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(error.validation)) {
    const name = field.split('.')[0] ?? field;
    validation[name] ??= messages;
  }
  return new ApiError(error.status, error.code, { validation, info: error.info });
}

const CONTROL =
  'h-10 w-full min-w-0 rounded-lg border border-[#dfe1e6] bg-white px-3 text-sm text-slate-900 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30 disabled:bg-slate-50 disabled:text-slate-500 aria-[invalid=true]:border-red-500';

/**
 * Every field staff set on a server, for adding one and for changing it (the note-editor
 * pattern: one form, two ten-line callers). Checked in the browser by the endpoint's own
 * schema; the server's messages go under their fields (§5). The key and the status are never
 * typed: the node sends its key when it enrolls, and the status follows the node.
 */
export function ServerForm(props: {
  server?: AdminServer;
  /** The country of a new server (a country's page adds there). */
  countryCode?: string;
  submitLabel: string;
  onSubmit: (fields: ServerFields) => Promise<unknown>;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const citiesId = useId();
  const [formError, setFormError] = useState<string>();
  const form = useForm<ServerFormValues>({
    defaultValues: valuesOf(props.server, props.countryCode ?? ''),
  });
  const { register, handleSubmit, setError, formState, watch, setValue } = form;
  const error = (name: FieldName) => formState.errors[name]?.message as string | undefined;
  const countryCode = watch('country_code');
  const tags = list(watch('tags'));
  const countries = useFleetCountries('all');
  const cities = useCities(countryCode);
  const devices = props.server?.devices ?? 0;
  // Devices' addresses are host numbers of the pools: with devices on it the pools stay.
  const poolsFixed = devices > 0;

  const submit = handleSubmit(async (values) => {
    setFormError(undefined);
    const typed = values.city.trim().toLowerCase();
    const known = cities.data?.find((city) => city.name.toLowerCase() === typed);
    const parsed = serverFields.safeParse(requestOf(values, known?.city_id ?? null));
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

  const text = (
    name: FieldName,
    options: {
      hint?: string;
      required?: boolean;
      inputMode?: 'numeric';
      readOnly?: boolean;
      placeholder?: string;
      list?: string;
    } = {},
  ) => (
    <FieldSlot>
      <TextInput
        label={t(`staff_servers.fields.${name}`)}
        hint={options.hint}
        required={options.required}
        inputMode={options.inputMode}
        readOnly={options.readOnly}
        placeholder={options.placeholder}
        list={options.list}
        autoComplete="off"
        spellCheck={false}
        error={error(name)}
        className={options.readOnly ? 'bg-slate-50 text-slate-600' : ''}
        {...register(name)}
      />
    </FieldSlot>
  );

  const addTag = (tag: string) =>
    setValue('tags', [...tags, tag].join(', '), { shouldDirty: true });

  return (
    <form noValidate onSubmit={submit} className="flex flex-col" aria-label={props.submitLabel}>
      <div className="grid gap-x-4 sm:grid-cols-2">
        {text('name', { required: true, hint: t('staff_servers.form.name_hint') })}
        <FieldSlot>
          <FormField
            label={t('staff_servers.fields.country_code')}
            error={error('country_code')}
            required
          >
            {(field) => (
              // Controlled: the options arrive after the saved or preset country is set.
              <select
                {...register('country_code')}
                {...field}
                value={countryCode}
                className={CONTROL}
              >
                <option value="">{t('staff_servers.form.choose_country')}</option>
                {/* The preset or saved country, before the list has come. */}
                {countryCode &&
                  !countries.data?.some((country) => country.country_code === countryCode) && (
                    <option value={countryCode}>{props.server?.country_name ?? countryCode}</option>
                  )}
                {countries.data?.map((country) => (
                  <option key={country.country_code} value={country.country_code}>
                    {country.name}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        </FieldSlot>
        {text('city', {
          required: true,
          list: citiesId,
          hint: t('staff_servers.form.city_hint'),
        })}
        <datalist id={citiesId}>
          {cities.data?.map((city) => (
            <option key={city.city_id} value={city.name} />
          ))}
        </datalist>
        {text('endpoint_host', {
          required: true,
          placeholder: 'vpn-de-1.example.com',
          hint: t('staff_servers.form.endpoint_host_hint'),
        })}
        {text('endpoint_port', { required: true, inputMode: 'numeric' })}
        {text('listen_port', {
          inputMode: 'numeric',
          hint: t('staff_servers.form.listen_port_hint'),
        })}
        {text('ipv4_pool', {
          required: true,
          readOnly: poolsFixed,
          hint: t(poolsFixed ? 'staff_servers.form.pool_fixed' : 'staff_servers.form.pool_hint'),
        })}
        {text('ipv6_pool', {
          required: true,
          readOnly: poolsFixed,
          hint: t(poolsFixed ? 'staff_servers.form.pool_fixed' : 'staff_servers.form.pool_hint'),
        })}
        {text('dns', { required: true, hint: t('staff_servers.form.dns_hint') })}
        {text('capacity', {
          required: true,
          inputMode: 'numeric',
          hint:
            devices > 0
              ? t('staff_servers.form.capacity_devices', { devices })
              : t('staff_servers.form.capacity_hint'),
        })}
      </div>
      <div className="mb-4 flex flex-col gap-2">
        <TextInput
          label={t('staff_servers.fields.tags')}
          hint={t('staff_servers.form.tags_hint')}
          autoComplete="off"
          spellCheck={false}
          error={error('tags')}
          {...register('tags')}
        />
        {SUGGESTED_TAGS.some((tag) => !tags.includes(tag)) && (
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-xs text-slate-600">{t('staff_servers.form.suggested_tags')}</span>
            {SUGGESTED_TAGS.filter((tag) => !tags.includes(tag)).map((tag) => (
              <button
                key={tag}
                type="button"
                onClick={() => addTag(tag)}
                aria-label={t('staff_servers.form.add_tag', { tag })}
                className="rounded-full border border-slate-300 px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-500"
              >
                + {tag}
              </button>
            ))}
          </div>
        )}
      </div>
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
