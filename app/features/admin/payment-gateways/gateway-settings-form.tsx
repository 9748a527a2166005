import { useId, useState } from 'react';
import { type FieldPath, type UseFormReturn, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  type GatewaySettingsView,
  gatewaySettingsEndpoints,
} from '#shared/contracts/admin/payment-gateways.ts';
import { call } from '../../../api/client.ts';
import { applyApiErrors } from '../../../ui/api-form-errors.ts';
import { Button } from '../../../ui/button.tsx';
import { FieldError, FieldSlot, FormError, FormField } from '../../../ui/form-field.tsx';
import { notify } from '../../../ui/toast.tsx';
import { type GatewayField, gatewayFields, schemaDefault } from './gateway-fields.ts';

// Field names are `values.<field>`, the paths the server names its errors by
// (`values.clientSecret`), so its messages land under their fields as they come.
interface SettingsForm {
  enabled: boolean;
  values: Record<string, string | boolean>;
}
type FieldName = FieldPath<SettingsForm>;

function formDefaults(view: GatewaySettingsView, fields: readonly GatewayField[]): SettingsForm {
  const values: SettingsForm['values'] = {};
  for (const field of fields) {
    const current = view.values[field.name] ?? schemaDefault(view.gateway, field.name);
    if (field.control.kind === 'switch') values[field.name] = current === true;
    // Secrets are write-only: the form starts empty and an empty one keeps what is stored.
    else values[field.name] = field.secret || current === undefined ? '' : String(current);
  }
  // Nothing set up yet: whoever fills this in means to switch the gateway on.
  return { enabled: view.enabled || view.source === 'none', values };
}

/** The update's values: every plain field as it stands, only the secrets typed anew. */
export function valuesToSend(
  fields: readonly GatewayField[],
  values: SettingsForm['values'],
): Record<string, string | boolean> {
  const sent: Record<string, string | boolean> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (typeof value === 'boolean') sent[field.name] = value;
    else if (!field.secret || (value ?? '').trim() !== '') sent[field.name] = (value ?? '').trim();
  }
  return sent;
}

interface Props {
  view: GatewaySettingsView;
  onSaved: (item: GatewaySettingsView) => Promise<void>;
}

/** A gateway's keys: one control per field of its schema, secrets never shown back. */
export function GatewaySettingsForm({ view, onSaved }: Props) {
  const { t } = useTranslation();
  const fields = gatewayFields(view.gateway);
  const form = useForm<SettingsForm>({ defaultValues: formDefaults(view, fields) });
  const [formError, setFormError] = useState<string>();
  const names: FieldName[] = ['enabled', ...fields.map((field) => `values.${field.name}` as const)];

  const submit = form.handleSubmit(async ({ enabled, values }) => {
    setFormError(undefined);
    try {
      const { item } = await call(gatewaySettingsEndpoints.update, {
        body: { gateway: view.gateway, enabled, values: valuesToSend(fields, values) },
      });
      notify.success('staff.gateway_settings.saved');
      // What is in force now; secrets typed here are gone from the page once saved.
      form.reset(formDefaults(item, fields));
      await onSaved(item);
    } catch (error) {
      setFormError(applyApiErrors(error, form.setError, names));
    }
  });

  return (
    <form noValidate onSubmit={submit} className="flex flex-col">
      <EnabledSwitch form={form} />
      {fields.map((field) => (
        <SettingsControl key={field.name} field={field} view={view} form={form} />
      ))}
      <FormError message={formError} className="mb-4" />
      <div className="flex justify-end">
        <Button type="submit" loading={form.formState.isSubmitting}>
          {t('staff.kit.save')}
        </Button>
      </div>
    </form>
  );
}

function EnabledSwitch({ form }: { form: UseFormReturn<SettingsForm> }) {
  const { t } = useTranslation();
  const id = useId();
  const error = form.getFieldState('enabled', form.formState).error?.message;
  return (
    <div className="mb-6 flex flex-col gap-1 rounded-xl border border-slate-200 p-4">
      <label htmlFor={id} className="flex cursor-pointer items-start gap-3">
        <input
          id={id}
          type="checkbox"
          aria-describedby={`${id}-text ${error ? `${id}-error` : ''}`.trim()}
          aria-invalid={error ? true : undefined}
          {...form.register('enabled')}
          className="mt-0.5 size-4 shrink-0 accent-brand-500"
        />
        <span className="text-sm font-medium text-slate-900">
          {t('staff.gateway_settings.enabled')}
        </span>
      </label>
      <p id={`${id}-text`} className="pl-7 text-xs text-slate-500">
        {t('staff.gateway_settings.enabled_text')}
      </p>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

const CONTROL =
  'w-full min-w-0 rounded-lg border bg-white px-3 text-sm text-slate-900 placeholder:text-slate-400 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30';

function SettingsControl({
  field,
  view,
  form,
}: {
  field: GatewayField;
  view: GatewaySettingsView;
  form: UseFormReturn<SettingsForm>;
}) {
  const { t } = useTranslation();
  const stateId = useId();
  const name = `values.${field.name}` as const;
  const error = form.getFieldState(name, form.formState).error?.message;
  const label = t(field.label);
  const hint = field.hint === undefined ? undefined : t(field.hint);
  const border = error ? 'border-red-500' : 'border-[#dfe1e6]';
  const { control } = field;

  if (control.kind === 'switch') {
    const id = `${stateId}-control`;
    return (
      <div className="mb-4 flex flex-col gap-1">
        <label htmlFor={id} className="flex cursor-pointer items-center gap-3">
          <input
            id={id}
            type="checkbox"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-message` : undefined}
            {...form.register(name)}
            className="size-4 shrink-0 accent-brand-500"
          />
          <span className="text-sm text-slate-800">{label}</span>
        </label>
        <FieldError id={`${id}-message`} message={error} />
      </div>
    );
  }

  // Beside a secret: whether one is stored, never what it is.
  const secretState = field.secret ? (
    <p id={stateId} className="text-xs text-slate-600" data-testid={`secret-${field.name}`}>
      {t(secretStateKey(view, field.name))}
    </p>
  ) : null;

  return (
    <div className="mb-2">
      <FieldSlot>
        <FormField label={label} error={error} hint={hint}>
          {(props) => {
            const describedBy =
              [field.secret ? stateId : undefined, props['aria-describedby']]
                .filter(Boolean)
                .join(' ') || undefined;
            const common = { ...props, 'aria-describedby': describedBy, ...form.register(name) };
            if (control.kind === 'select') {
              return (
                <select {...common} className={`h-10 ${CONTROL} ${border}`}>
                  {control.options.map((option) => (
                    <option key={option.value} value={option.value}>
                      {t(option.label)}
                    </option>
                  ))}
                </select>
              );
            }
            if (control.kind === 'pem') {
              return (
                <>
                  <textarea
                    {...common}
                    rows={field.secret ? 4 : 6}
                    spellCheck={false}
                    autoComplete="off"
                    placeholder={field.secret ? undefined : '-----BEGIN CERTIFICATE-----'}
                    className={`py-2 font-mono text-xs ${CONTROL} ${border}`}
                  />
                  {secretState}
                </>
              );
            }
            return (
              <>
                <input
                  {...common}
                  type={field.secret ? 'password' : control.kind === 'url' ? 'url' : 'text'}
                  inputMode={control.kind === 'number' ? 'numeric' : undefined}
                  // A password manager must neither fill in a login here nor offer to save it.
                  autoComplete={field.secret ? 'new-password' : 'off'}
                  spellCheck={false}
                  className={`h-10 ${CONTROL} ${border}`}
                />
                {secretState}
              </>
            );
          }}
        </FormField>
      </FieldSlot>
    </div>
  );
}

function secretStateKey(view: GatewaySettingsView, field: string): string {
  if (!view.secrets[field]) return 'staff.gateway_settings.secret.not_set';
  // The server keeps only a secret saved here: one from the environment must be typed again.
  return view.source === 'environment'
    ? 'staff.gateway_settings.secret.in_environment'
    : 'staff.gateway_settings.secret.set';
}
