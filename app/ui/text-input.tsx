import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { FormField } from './form-field.tsx';

export interface TextInputProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'aria-invalid' | 'aria-describedby'> {
  label: ReactNode;
  /** An i18n key (see FormField). */
  error?: string | undefined;
  hint?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

/**
 * A labelled input that spreads react-hook-form's `register(...)` straight through.
 * `required` only marks the field (aria-required): the form's schema owns the message.
 */
export function TextInput({
  label,
  error,
  hint,
  id,
  required,
  className = '',
  ref,
  ...input
}: TextInputProps) {
  return (
    <FormField label={label} error={error} hint={hint} required={required} id={id}>
      {(control) => (
        <input
          type="text"
          {...input}
          {...control}
          ref={ref}
          className={`h-10 rounded-lg border bg-white px-3 text-sm text-slate-900 placeholder:text-slate-400 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30 disabled:bg-slate-50 ${error ? 'border-red-500' : 'border-[#dfe1e6]'} ${className}`}
        />
      )}
    </FormField>
  );
}
