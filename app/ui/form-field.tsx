import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';

/** What a control needs to be labelled by its field and described by its message. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': boolean | undefined;
  'aria-describedby': string | undefined;
  'aria-required': boolean | undefined;
}

export interface FormFieldProps {
  label: ReactNode;
  /** An i18n key, as react-hook-form or the server hold it (§5: one message per field). */
  error?: string | undefined;
  /** Translated help text, shown while there is no error. */
  hint?: ReactNode;
  required?: boolean;
  id?: string;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}

export function FormField({
  label,
  error,
  hint,
  required,
  id,
  className = '',
  children,
}: FormFieldProps) {
  const generated = useId();
  const controlId = id ?? generated;
  const messageId = `${controlId}-message`;
  const hasError = Boolean(error);
  const hasMessage = hasError || hint !== undefined;
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={controlId} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      {children({
        id: controlId,
        'aria-invalid': hasError || undefined,
        'aria-describedby': hasMessage ? messageId : undefined,
        'aria-required': required || undefined,
      })}
      {hasError ? (
        <FieldError id={messageId} message={error} />
      ) : (
        hint !== undefined && (
          <p id={messageId} className="text-xs text-slate-500">
            {hint}
          </p>
        )
      )}
    </div>
  );
}

export function FieldError({ id, message }: { id?: string; message: string | undefined }) {
  const { t } = useTranslation();
  if (!message) return null;
  return (
    <p id={id} className="text-xs text-red-600">
      {t(message)}
    </p>
  );
}

/** A message about the whole form (§5: the first errors_info message), announced at once. */
export function FormError({
  message,
  className = '',
}: {
  message?: string | undefined;
  className?: string;
}) {
  const { t } = useTranslation();
  if (!message) return null;
  return (
    <p
      role="alert"
      className={`rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700 ${className}`}
    >
      {t(message)}
    </p>
  );
}

/**
 * Room for a field's label, input and one line of message, so a message appearing under a
 * field does not push the rest of the form down.
 */
export function FieldSlot({ children }: { children: ReactNode }) {
  return <div className="min-h-[5.25rem]">{children}</div>;
}
