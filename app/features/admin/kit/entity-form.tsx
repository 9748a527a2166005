import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useState } from 'react';
import {
  type DefaultValues,
  type FieldValues,
  type Path,
  type Resolver,
  useForm,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { applyApiErrors } from '../../../ui/api-form-errors.ts';
import { Button } from '../../../ui/button.tsx';
import { FieldSlot, FormError, FormField } from '../../../ui/form-field.tsx';
import { TextInput } from '../../../ui/text-input.tsx';

/** A field of an admin form; `label` is an i18n key, options' labels translated text. */
export interface FormFieldDef<V extends FieldValues> {
  name: Path<V>;
  label: string;
  type?: 'text' | 'email' | 'password' | 'new-password' | 'number' | 'select';
  options?: readonly { value: string | number; label: string }[];
  /** A select or number whose empty choice means null (no country, unlimited). */
  nullable?: boolean;
  /** Left empty, the field is not sent at all (a password asked for only sometimes). */
  optional?: boolean;
  autoComplete?: string;
  hint?: string;
  required?: boolean;
}

export interface EntityFormProps<S extends z.ZodType<FieldValues, FieldValues>> {
  /** The request schema of the endpoint the form sends to (shared/contracts). */
  schema: S;
  defaultValues: DefaultValues<z.input<S>>;
  fields: readonly FormFieldDef<z.input<S>>[];
  submitLabel: string;
  /** Sends the values; an ApiError's messages go under their fields (§5). */
  onSubmit: (values: z.output<S>) => Promise<unknown>;
  /** Buttons beside submit (cancel). */
  extra?: ReactNode;
}

/**
 * The one form behind "create" and "edit": validated by the endpoint's own schema in the
 * browser, the server's errors shown under their fields and the rest above the button.
 */
export function EntityForm<S extends z.ZodType<FieldValues, FieldValues>>(
  props: EntityFormProps<S>,
) {
  const { t } = useTranslation();
  const [formError, setFormError] = useState<string>();
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver: zodResolver(props.schema as never) as unknown as Resolver<
      z.input<S>,
      unknown,
      z.output<S>
    >,
    defaultValues: props.defaultValues,
  });
  const { register, handleSubmit, setError, formState } = form;
  const names = props.fields.map((field) => field.name);

  const submit = handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      await props.onSubmit(values);
    } catch (error) {
      setFormError(applyApiErrors(error, setError, names));
    }
  });

  return (
    <form noValidate onSubmit={submit} className="flex flex-col">
      {props.fields.map((field) => {
        const error = formState.errors[field.name]?.message as string | undefined;
        const label = t(field.label);
        const hint = field.hint === undefined ? undefined : t(field.hint);
        if (field.type === 'select' || field.type === 'number') {
          const numeric = field.type === 'number' || typeof field.options?.[0]?.value === 'number';
          const registered = register(field.name, {
            // Called with the DOM's text, and with the default value itself (null) at first.
            setValueAs: (value: string | number | null | undefined) => {
              if (value === '' || value === null || value === undefined) {
                return field.nullable ? null : undefined;
              }
              return numeric ? Number(value) : value;
            },
          });
          return (
            <FieldSlot key={field.name}>
              <FormField label={label} error={error} hint={hint} required={field.required}>
                {(control) =>
                  field.type === 'select' ? (
                    <select {...registered} {...control} className={CONTROL}>
                      {field.nullable && <option value="">{t('staff.kit.none')}</option>}
                      {field.options?.map((option) => (
                        <option key={option.value} value={option.value}>
                          {option.label}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <input
                      {...registered}
                      {...control}
                      type="number"
                      inputMode="numeric"
                      className={CONTROL}
                    />
                  )
                }
              </FormField>
            </FieldSlot>
          );
        }
        const type = field.type === 'new-password' ? 'password' : (field.type ?? 'text');
        const autoComplete =
          field.autoComplete ?? (field.type === 'new-password' ? 'new-password' : undefined);
        return (
          <FieldSlot key={field.name}>
            <TextInput
              label={label}
              hint={hint}
              type={type}
              autoComplete={autoComplete}
              required={field.required}
              {...register(field.name, {
                setValueAs: field.optional
                  ? (value: string) => (value === '' ? undefined : value)
                  : undefined,
              })}
              error={error}
            />
          </FieldSlot>
        );
      })}
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

const CONTROL =
  'h-10 w-full min-w-0 rounded-lg border border-[#dfe1e6] bg-white px-3 text-sm text-slate-900 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30 aria-[invalid=true]:border-red-500';
